import { SniffingTransport, type TransportOptions } from '@elastic/elasticsearch';

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

export class OpenSearchTransport extends SniffingTransport {
  constructor(opts: TransportOptions) {
    super({ ...opts, productCheck: undefined, vendoredHeaders: { ...plainJsonHeaders } });
  }
}
