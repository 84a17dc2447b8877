/** Demo Knowledge sheets, taxonomy and links: how this team defines and reads its numbers. */
export const DEMO_KNOWLEDGE: { topic_id: string; title: string; owner: string; body_md: string; explains: string[] }[] =
  [
    {
      topic_id: 'roas-definition',
      title: 'How we compute ROAS',
      owner: 'Marketing analytics',
      explains: ['kpi.roas'],
      body_md: `ROAS (return on ad spend) = attributed revenue ÷ ad spend, both in the reporting currency, net of VAT and refunds.

- Revenue is attributed with our data-driven model (see the attribution sheet), not platform-reported revenue.
- Spend includes agency fees for paid social; it excludes creative production.
- Target ROAS: 4.0 blended, 3.0 for prospecting campaigns, 8.0 for brand search.
- Never compare platform ROAS across channels: each platform claims the same orders.`,
    },
    {
      topic_id: 'attribution-model',
      title: 'Attribution model and lookback windows',
      owner: 'Marketing analytics',
      explains: ['kpi.roas', 'kpi.revenue'],
      body_md: `We use a data-driven attribution model with a 30-day click and 1-day view lookback.

- Revenue for the last 7 days keeps changing while late conversions arrive: treat it as preliminary.
- Brand search gets less credit than last-click would give it; expect lower brand ROAS in our reports than in Google Ads.
- Changing the model restates history; announce it in the weekly review first.`,
    },
    {
      topic_id: 'conversion-tracking-setup',
      title: 'Conversion tracking: tags, server-side events and consent',
      owner: 'Web engineering',
      explains: ['surface.checkout', 'kpi.cvr'],
      body_md: `Purchases are tracked twice: the browser tag (tag manager) and a server-side event from the order service.

- Both carry the same event_id so the ad platforms deduplicate.
- The consent banner controls the browser tag; server-side events send only consented identifiers.
- Typical gap between backend orders and reported purchases: 3–6%. Above 10% means something broke.`,
    },
    {
      topic_id: 'budget-pacing-rules',
      title: 'Monthly budget pacing rules',
      owner: 'Performance marketing',
      explains: ['kpi.spend'],
      body_md: `Budgets are set per channel per month. Pacing = month-to-date spend ÷ (budget × days elapsed ÷ days in month).

- 95–105%: on track. 90–110%: watch. Outside: act within one business day.
- In November and December we pace with seasonality weights, not evenly.
- Unspent budget does not roll over to the next month.`,
    },
    {
      topic_id: 'campaign-naming-conventions',
      title: 'Campaign and UTM naming conventions',
      owner: 'Performance marketing',
      explains: ['channel.paid_search', 'channel.paid_social'],
      body_md: `Campaign names: channel_market_objective_yyyymm, e.g. psoc_us_prospecting_202611.

- utm_source = platform (google, meta, tiktok), utm_medium = cpc or paid_social, utm_campaign = the campaign name.
- Lowercase only, underscores, no spaces. Reports group by these names; a typo creates a new campaign in the data.`,
    },
    {
      topic_id: 'checkout-funnel',
      title: 'Checkout funnel stages and events',
      owner: 'Ecommerce product',
      explains: ['surface.checkout', 'surface.cart', 'kpi.cvr'],
      body_md: `Stages and the events that mark them: product view (view_item), add to cart (add_to_cart), checkout start (begin_checkout), payment (add_payment_info), purchase.

- Normal rates: add to cart 8–10% of product views; checkout start to purchase 55–65%.
- Apple Pay and PayPal skip the payment step: their purchases have no add_payment_info.`,
    },
    {
      topic_id: 'seasonality-calendar',
      title: 'Seasonality and promotion calendar',
      owner: 'Marketing analytics',
      explains: ['kpi.revenue'],
      body_md: `Peaks: spring sale (mid-March), summer camping season (June–July), Black Friday to Cyber Monday, December gifting until the 18th.

- Week-over-week comparisons across a promo boundary are misleading: compare with the same week last year.
- After a promo ends, ROAS and conversion rate drop for about a week; that is expected.`,
    },
    {
      topic_id: 'data-freshness',
      title: 'Data freshness and reporting delays by source',
      owner: 'Data engineering',
      explains: ['kpi.spend', 'kpi.revenue'],
      body_md: `When each source is complete for a day (store timezone):

- Google Ads and Meta spend: next day 06:00, small restatements for 3 days.
- Shop orders: real time; refunds arrive up to 30 days later.
- Attribution model output: next day 09:00.
- Never report today's numbers as final.`,
    },
    {
      topic_id: 'cac-and-payback',
      title: 'CAC, blended vs paid, and payback',
      owner: 'Finance',
      explains: ['kpi.cac'],
      body_md: `CAC = marketing spend ÷ new customers in the period.

- Blended CAC uses all spend and all new customers; paid CAC only paid channels and the customers attributed to them.
- Payback target: the first-order margin plus 6 months of repeat margin covers CAC.
- CPA in the ad platforms counts orders, not new customers: it is not CAC.`,
    },
    {
      topic_id: 'anomaly-thresholds',
      title: 'What counts as an anomaly',
      owner: 'Marketing analytics',
      explains: ['kpi.roas', 'kpi.cvr', 'kpi.spend'],
      body_md: `An anomaly fires when a KPI's day is outside the expected band for that weekday (8-week history, robust z-score above 3).

- ROAS and conversion rate alerts need at least 50 conversions in the day to fire.
- Spend alerts fire on any channel above 150% of its 7-day average daily spend.
- An alert on the day after a release: start with check-tracking-after-release.`,
    },
  ];

export const DEMO_KEYS: { key: string; label: string; parent?: string; description?: string; synonyms?: string[] }[] = [
  { key: 'kpi', label: 'KPIs', description: 'Key performance indicators the team reports on.' },
  {
    key: 'kpi.roas',
    label: 'ROAS',
    parent: 'kpi',
    description: 'Return on ad spend: attributed revenue divided by ad spend.',
    synonyms: ['return on ad spend'],
  },
  {
    key: 'kpi.cac',
    label: 'CAC',
    parent: 'kpi',
    description: 'Customer acquisition cost: spend per new customer.',
    synonyms: ['customer acquisition cost'],
  },
  {
    key: 'kpi.cvr',
    label: 'Conversion rate',
    parent: 'kpi',
    description: 'Purchases divided by sessions.',
    synonyms: ['CVR', 'CR'],
  },
  { key: 'kpi.aov', label: 'Average order value', parent: 'kpi', synonyms: ['AOV', 'basket size'] },
  {
    key: 'kpi.revenue',
    label: 'Revenue',
    parent: 'kpi',
    description: 'Net revenue after VAT and refunds.',
    synonyms: ['sales', 'turnover'],
  },
  { key: 'kpi.spend', label: 'Ad spend', parent: 'kpi', synonyms: ['media spend', 'cost'] },
  { key: 'kpi.cpm', label: 'CPM', parent: 'kpi', synonyms: ['cost per mille'] },
  { key: 'kpi.ctr', label: 'Click-through rate', parent: 'kpi', synonyms: ['CTR'] },
  { key: 'channel', label: 'Channels', description: 'Marketing channels that bring traffic.' },
  { key: 'channel.paid_search', label: 'Paid search', parent: 'channel', synonyms: ['SEM', 'Google Ads', 'PPC'] },
  {
    key: 'channel.paid_social',
    label: 'Paid social',
    parent: 'channel',
    synonyms: ['Meta ads', 'Facebook ads', 'TikTok ads'],
  },
  { key: 'channel.email', label: 'Email', parent: 'channel', synonyms: ['CRM', 'newsletter'] },
  { key: 'channel.organic_search', label: 'Organic search', parent: 'channel', synonyms: ['SEO'] },
  { key: 'surface', label: 'Surfaces', description: 'Places on the site and app where customers act.' },
  { key: 'surface.landing_page', label: 'Landing page', parent: 'surface' },
  { key: 'surface.cart', label: 'Cart', parent: 'surface', synonyms: ['basket'] },
  {
    key: 'surface.checkout',
    label: 'Checkout',
    parent: 'surface',
    description: 'From checkout start to the order confirmation page.',
  },
];

/** Skill → key links beyond the [[key]] references in the bodies. */
export const DEMO_SKILL_LINKS: { skill: string; key: string; relation: 'uses' | 'related_to' }[] = [
  { skill: 'budget-pacing-check', key: 'channel.paid_search', relation: 'uses' },
  { skill: 'budget-pacing-check', key: 'channel.paid_social', relation: 'uses' },
  { skill: 'check-tracking-after-release', key: 'surface.checkout', relation: 'uses' },
  { skill: 'diagnose-checkout-conversion-drop', key: 'kpi.cvr', relation: 'uses' },
  { skill: 'validate-campaign-launch', key: 'channel.paid_social', relation: 'related_to' },
];
