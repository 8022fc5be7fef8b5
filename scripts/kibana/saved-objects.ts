import type { AggSpec, DashboardSpec, DataViewSpec, SearchSpec, VisSpec } from './spec';

/**
 * Saved objects in the 7.10 shape that both Kibana 8 (which migrates them on import) and
 * OpenSearch Dashboards (whose objects are still that shape) accept: `index-pattern`,
 * aggregation-based `visualization`, `search` and `dashboard`, linked by `references`.
 */
export interface SavedObject {
  type: 'index-pattern' | 'visualization' | 'search' | 'dashboard';
  id: string;
  attributes: Record<string, unknown>;
  references: { name: string; type: string; id: string }[];
  migrationVersion: Record<string, string>;
}

const INDEX_REF = 'kibanaSavedObjectMeta.searchSourceJSON.index';

function searchSource(query = '', withIndex = true): { searchSourceJSON: string } {
  return { searchSourceJSON: JSON.stringify({ query: { query, language: 'kuery' }, filter: [], ...(withIndex ? { indexRefName: INDEX_REF } : {}) }) };
}

export function dataViewObject(d: DataViewSpec): SavedObject {
  return { type: 'index-pattern', id: d.id, attributes: { title: d.title, timeFieldName: d.timeField }, references: [], migrationVersion: { 'index-pattern': '7.6.0' } };
}

function aggParams(a: AggSpec, countId: string): Record<string, unknown> {
  switch (a.type) {
    case 'count': return {};
    case 'date_histogram':
      return { field: a.field, useNormalizedEsInterval: true, scaleMetricValues: false, interval: a.interval ?? 'auto', drop_partials: false, min_doc_count: 1, extended_bounds: {} };
    case 'terms':
      return { field: a.field, orderBy: a.orderBy ?? countId, order: 'desc', size: a.size ?? 10, otherBucket: false, otherBucketLabel: 'Other', missingBucket: false, missingBucketLabel: 'Missing' };
    case 'histogram':
      return { field: a.field, interval: a.interval, min_doc_count: false, has_extended_bounds: false, extended_bounds: { min: '', max: '' } };
    default: return { field: a.field };
  }
}

function xyParams(v: VisSpec): Record<string, unknown> {
  const horizontal = v.type === 'horizontal_bar';
  const seriesType = v.type === 'line' ? 'line' : 'histogram';
  const metrics = v.aggs.map((a, i) => ({ a, id: String(i + 1) })).filter((m) => m.a.schema === 'metric');
  return {
    type: v.type, grid: { categoryLines: false },
    categoryAxes: [{ id: 'CategoryAxis-1', type: 'category', position: horizontal ? 'left' : 'bottom', show: true, style: {}, scale: { type: 'linear' }, labels: { show: true, filter: !horizontal, truncate: 100 }, title: {} }],
    valueAxes: [{ id: 'ValueAxis-1', name: 'LeftAxis-1', type: 'value', position: horizontal ? 'bottom' : 'left', show: true, style: {}, scale: { type: 'linear', mode: 'normal' }, labels: { show: true, rotate: 0, filter: false, truncate: 100 }, title: { text: metrics[0]?.a.type === 'count' ? 'Count' : `${metrics[0]?.a.type ?? ''} ${metrics[0]?.a.field ?? ''}` } }],
    seriesParams: metrics.map((m) => ({ show: true, type: seriesType, mode: v.stacked ? 'stacked' : 'normal', data: { label: m.a.type === 'count' ? 'Count' : `${m.a.type} ${m.a.field}`, id: m.id }, valueAxis: 'ValueAxis-1', drawLinesBetweenPoints: true, lineWidth: 2, showCircles: true, interpolate: 'linear' })),
    addTooltip: true, addLegend: true, legendPosition: 'right', times: [], addTimeMarker: false, labels: { show: false },
    thresholdLine: { show: false, value: 10, width: 1, style: 'full', color: '#E7664C' },
  };
}

function visParams(v: VisSpec): Record<string, unknown> {
  switch (v.type) {
    case 'line': case 'histogram': case 'horizontal_bar': return xyParams(v);
    case 'pie': return { type: 'pie', addTooltip: true, addLegend: true, legendPosition: 'right', isDonut: true, labels: { show: false, values: true, last_level: true, truncate: 100 } };
    case 'table': return { perPage: 10, showPartialRows: false, showMetricsAtAllLevels: false, showTotal: false, totalFunc: 'sum', percentageCol: '' };
    case 'tagcloud': return { scale: 'linear', orientation: 'single', minFontSize: 18, maxFontSize: 72, showLabel: true };
    case 'metric':
      return { addTooltip: true, addLegend: false, type: 'metric', metric: { percentageMode: false, useRanges: false, colorSchema: 'Green to Red', metricColorMode: 'None', colorsRange: [{ from: 0, to: 10000 }], labels: { show: true }, invertColors: false, style: { bgFill: '#000', bgColor: false, labelColor: false, subText: '', fontSize: 60 } } };
  }
}

export function visualisationObject(v: VisSpec): SavedObject {
  const countId = String(Math.max(1, v.aggs.findIndex((a) => a.type === 'count') + 1));
  const visState = {
    title: v.title, type: v.type, params: visParams(v),
    aggs: v.aggs.map((a, i) => ({ id: String(i + 1), enabled: true, type: a.type, schema: a.schema, params: aggParams(a, countId) })),
  };
  return {
    type: 'visualization', id: v.id,
    attributes: { title: v.title, visState: JSON.stringify(visState), uiStateJSON: '{}', description: '', version: 1, kibanaSavedObjectMeta: searchSource(v.query ?? '') },
    references: [{ name: INDEX_REF, type: 'index-pattern', id: v.dataView }],
    migrationVersion: { visualization: '7.10.0' },
  };
}

export function searchObject(s: SearchSpec): SavedObject {
  return {
    type: 'search', id: s.id,
    attributes: { title: s.title, description: '', hits: 0, columns: s.columns, sort: s.sort, version: 1, kibanaSavedObjectMeta: searchSource(s.query ?? '') },
    references: [{ name: INDEX_REF, type: 'index-pattern', id: s.dataView }],
    migrationVersion: { search: '7.9.3' },
  };
}

export function dashboardObject(d: DashboardSpec): SavedObject {
  let x = 0;
  let y = 0;
  let rowH = 0;
  const panels = d.panels.map((p, i) => {
    if (x + p.w > 48) { x = 0; y += rowH; rowH = 0; }
    const panelIndex = String(i + 1);
    const out = { version: '7.10.0', panelIndex, gridData: { x, y, w: p.w, h: p.h, i: panelIndex }, embeddableConfig: {}, panelRefName: `panel_${i}` };
    x += p.w;
    rowH = Math.max(rowH, p.h);
    return out;
  });
  return {
    type: 'dashboard', id: d.id,
    attributes: {
      title: d.title, description: d.description, hits: 0, panelsJSON: JSON.stringify(panels),
      optionsJSON: JSON.stringify({ useMargins: true, hidePanelTitles: false }), version: 1, timeRestore: false,
      kibanaSavedObjectMeta: searchSource('', false),
    },
    references: d.panels.map((p, i) => ({ name: `panel_${i}`, type: p.kind, id: p.id })),
    migrationVersion: { dashboard: '7.9.3' },
  };
}
