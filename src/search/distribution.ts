import { ErrorCodes, FreshetError } from '../core/errors';

export type Distribution = 'elasticsearch' | 'opensearch';

export interface SearchNodeInfo {
  distribution: Distribution;
  version: string;
  major: number;
}

/**
 * Reads the body of `GET /`. OpenSearch reports `version.distribution: "opensearch"`;
 * Elasticsearch has no distribution field (or a build flavor) and must be 8 or newer for the
 * client's compatible-with=8 media types.
 */
export function detectDistribution(body: unknown): SearchNodeInfo {
  const version = (body as { version?: { number?: unknown; distribution?: unknown } } | null)?.version;
  if (!version || typeof version.number !== 'string') {
    throw new FreshetError(ErrorCodes.searchUnsupported, 'critical',
      'GET / did not answer like Elasticsearch or OpenSearch (no version.number)');
  }
  const major = Number.parseInt(version.number.split('.')[0] ?? '', 10);
  const distribution: Distribution = version.distribution === 'opensearch' ? 'opensearch' : 'elasticsearch';
  if (!Number.isFinite(major)) {
    throw new FreshetError(ErrorCodes.searchUnsupported, 'critical', `unreadable version ${version.number}`);
  }
  const supported = distribution === 'opensearch' ? major >= 2 : major >= 8;
  if (!supported) {
    throw new FreshetError(ErrorCodes.searchUnsupported, 'critical',
      `${distribution} ${version.number} is not supported: use Elasticsearch 8/9 or OpenSearch 2.x or newer`,
      { distribution, version: version.number });
  }
  return { distribution, version: version.number, major };
}
