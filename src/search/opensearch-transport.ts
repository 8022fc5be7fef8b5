import { SniffingTransport, type TransportOptions, type TransportRequestOptions, type TransportRequestParams } from '@elastic/elasticsearch';
import { withRootCause } from './node-errors';

/**
 * The transport of every client freshet creates: an error answer's message becomes one line that
 * names the node's deepest cause (templates, bulk, search, percolator alike), instead of the
 * client's several lines that lead with the wrapper.
 */
export class FreshetTransport extends SniffingTransport {
  // The overloads differ only in what they resolve to; the rewrite touches the rejection alone.
  override request(params: TransportRequestParams, options?: TransportRequestOptions): Promise<never> {
    return (super.request(params, options) as Promise<never>).catch((err: unknown) => {
      throw withRootCause(err);
    });
  }
}

/**
 * The official client refuses OpenSearch twice: it requires `x-elastic-product: Elasticsearch`
 * on every 2xx answer, and it sends `compatible-with=8` vendored media types that OpenSearch
 * answers with 406. This transport drops both and speaks plain JSON / NDJSON.
 */
export const plainJsonHeaders = {
  jsonContentType: 'application/json',
  ndjsonContentType: 'application/x-ndjson',
  accept: 'application/json, text/plain',
} as const;

export class OpenSearchTransport extends FreshetTransport {
  constructor(opts: TransportOptions) {
    super({ ...opts, productCheck: undefined, vendoredHeaders: { ...plainJsonHeaders } });
  }
}
