/**
 * The governed datasets a report definition may query: their metrics and dimensions. The
 * transformation models produce the first two; the evaluators' anomaly model produces the third.
 */
export const DATASETS: Record<string, { metrics: readonly string[]; dimensions: readonly string[] }> = {
  kpis_daily: {
    metrics: ['spend', 'revenue', 'conversions', 'clicks', 'impressions', 'roas', 'cpa', 'ctr', 'cvr'],
    dimensions: ['date', 'channel', 'currency'],
  },
  ad_performance_daily: {
    metrics: ['spend', 'revenue', 'conversions', 'clicks', 'impressions', 'spend_source', 'revenue_source'],
    dimensions: ['date', 'channel', 'campaign_id', 'campaign_name', 'source_currency', 'currency', 'datastream_id'],
  },
  anomalies_daily: {
    metrics: ['value', 'expected', 'deviation', 'score'],
    dimensions: ['date', 'channel', 'metric', 'direction', 'severity'],
  },
};

export const DATASET_NAMES = Object.keys(DATASETS);

export const RELATIVE_RANGES = [
  'today',
  'yesterday',
  'last_7_days',
  'last_14_days',
  'last_28_days',
  'last_30_days',
  'last_90_days',
  'month_to_date',
  'previous_month',
] as const;
