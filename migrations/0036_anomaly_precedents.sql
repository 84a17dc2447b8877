-- Issue 29: the detection rule's precedent check and the project pass that explains one series'
-- anomaly by another's (docs/api.md, "The detection rule").
-- precedent: the largest same-side |value − expected| of the precedent window the day was judged
-- against (null: none yet, or the check is off); status 'precedented' says it stopped the day.
-- explained_by_channel/metric: the fired series that explains this day (status 'explained').
ALTER TABLE anomalies_daily
  ADD COLUMN precedent double precision,
  ADD COLUMN explained_by_channel text,
  ADD COLUMN explained_by_metric text;
