-- Money: ECB euro reference rates, and business context events.

-- Units of `currency` per 1 EUR. EUR itself is implicit (1) and never stored. Rows are written
-- once (ON CONFLICT DO NOTHING) and never rewritten. Other modules read this table directly, e.g.
-- "the last published rate on or before D": the primary key serves that lookup backwards.
CREATE TABLE fx_rates (
  currency char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$' AND currency <> 'EUR'),
  rate_date date NOT NULL,
  rate_per_eur numeric NOT NULL CHECK (rate_per_eur > 0),
  source text NOT NULL,
  fetched_at timestamptz NOT NULL,
  PRIMARY KEY (currency, rate_date)
);
-- "Which day was the last publication on or before D" (weekends, holidays) without a currency.
CREATE INDEX fx_rates_rate_date ON fx_rates (rate_date);

-- Every load of rates (the bundled snapshot, each feed refresh), successful or not: the snapshot
-- load is skipped when its checksum is already here, and data quality reads the last refresh.
CREATE TABLE fx_rate_loads (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('snapshot', 'feed')),
  source text NOT NULL,
  checksum text,
  status text NOT NULL CHECK (status IN ('loaded', 'failed')),
  detail text,
  days_in_feed integer NOT NULL DEFAULT 0,
  rates_inserted integer NOT NULL DEFAULT 0,
  first_date date,
  last_date date,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL
);
CREATE INDEX fx_rate_loads_kind ON fx_rate_loads (kind, status, checksum);

-- Business context events: things that happened to a project (a release, a promotion, an outage)
-- that explain movements in its data. Active from event_date through
-- COALESCE(end_date, event_date) + impact_window_days, both ends inclusive.
CREATE TABLE context_events (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  event_type text NOT NULL CHECK (event_type IN ('release', 'campaign_launch', 'promotion', 'pricing_change',
    'tracking_change', 'outage', 'holiday', 'budget_change', 'other')),
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  event_date date NOT NULL,
  end_date date CHECK (end_date IS NULL OR end_date >= event_date),
  impact_window_days integer NOT NULL DEFAULT 7 CHECK (impact_window_days BETWEEN 0 AND 90),
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL
);
-- Lists are newest event_date first per project; the id breaks ties for a stable keyset cursor.
CREATE INDEX context_events_project_date ON context_events (project_id, event_date DESC, id DESC);
