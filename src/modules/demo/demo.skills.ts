/** Demo Skills for the demo project: the procedures a marketing analytics team actually runs. */
export const DEMO_SKILLS: {
  name: string;
  description: string;
  body_md: string;
  /** SKILL.md metadata, string values only; a prompt takes the inputs of the body's `## Arguments` section. */
  metadata?: Record<string, unknown>;
}[] = [
  {
    name: 'investigate-roas-drop',
    description:
      'Find out why ROAS fell week over week on a channel: spend, conversion rate, order value or tracking. Use when ROAS is down more than 15% or an anomaly fired on [[kpi.roas]].',
    body_md: `# Investigate a ROAS drop

ROAS ([[kpi.roas]]) is revenue divided by spend. A drop is always one of: spend went up without revenue,
conversion rate fell ([[kpi.cvr]]), order value fell ([[kpi.aov]]), or conversions stopped being recorded.

## Steps
1. **Confirm the drop is real**: compare the last 7 complete days with the 7 before, per channel. Exclude today; most sources are 24–48 h behind (see the data-freshness sheet).
2. **Split by channel**: find which of [[channel.paid_search]], [[channel.paid_social]] or other channels carries the drop. If all fall together, suspect tracking first.
3. **Check spend**: did [[kpi.spend]] rise (new campaigns, bid changes, budget raised)? Spend up with flat revenue is a pacing problem, not a performance one.
4. **Check conversion rate**: compare CVR on the landing pages and the checkout; a CVR drop limited to one surface points to a site issue.
5. **Check order value**: a promo or a mix shift to cheaper products lowers AOV and ROAS with it.
6. **Rule out tracking**: compare platform-reported conversions with orders in the shop backend. A gap above 10% means run check-tracking-after-release.
7. **Look at context events**: a release, a price change or a promo end in the window explains most drops.
8. **Write the finding**: one paragraph with the cause, the evidence (numbers) and the action owner.

## Acceptance
- The cause is named with numbers for both weeks.
- Tracking was ruled in or out with a backend comparison.
- An owner and a next action are written down.
`,
  },
  {
    name: 'check-tracking-after-release',
    description:
      'After a site or app release, verify that purchase and add-to-cart events still fire and reach the ad platforms. Use the morning after any release to checkout, cart or tag manager.',
    body_md: `# Check tracking after a release

Releases break tracking more often than campaigns break. The symptom is a sudden fall in reported
conversions ([[kpi.cvr]]) while backend orders are flat.

## Steps
1. **List what changed**: read the release notes for changes to [[surface.checkout]], [[surface.cart]], the consent banner or the tag manager container.
2. **Compare orders with reported purchases**: backend orders vs purchase events per day for 3 days before and after the release.
3. **Test the purchase event**: place a test order in staging or production with the debug view open; check the event, value and currency.
4. **Check server-side events**: confirm the conversions API still receives events with a matching event_id for deduplication.
5. **Check consent mode**: a new consent banner often defaults to denied; compare the consent rate before and after.
6. **Open an incident if the gap exceeds 10%**: tag the release, the engineer and the date the gap started, and annotate dashboards.

## Acceptance
- Backend orders and reported purchases agree within 5% again, or an incident is open.
- The affected date range is recorded so ROAS for those days is not trusted.
`,
  },
  {
    name: 'budget-pacing-check',
    description:
      'Check month-to-date spend against the monthly plan per channel and decide whether to slow down or accelerate. Run every Monday and in the last 10 days of a month.',
    body_md: `# Budget pacing check

Pacing compares month-to-date [[kpi.spend]] with the plan prorated by days elapsed, per channel.

## Steps
1. **Pull month-to-date spend per channel**: use complete days only.
2. **Compute expected spend**: monthly budget × days elapsed ÷ days in month (use the seasonality weights when the plan has them).
3. **Compute pacing**: actual ÷ expected. 95–105% is on track.
4. **Flag over-pacing above 110%**: name the campaigns with the largest daily spend increase.
5. **Flag under-pacing below 90%**: check for disapproved ads, exhausted audiences or bid caps.
6. **Project month-end**: current daily run rate × remaining days + month-to-date spend.
7. **Recommend an action**: daily budget change per channel to land within 2% of plan, and check that ROAS stays above target ([[kpi.roas]]).

## Acceptance
- Every channel has a pacing percentage and a projected month-end spend.
- Any channel outside 90–110% has a recommended daily budget.
`,
  },
  {
    name: 'weekly-performance-review',
    description:
      'Prepare the Monday performance review: KPIs vs last week and vs target, top movers, and the three things to act on.',
    body_md: `# Weekly performance review

## Steps
1. **Collect the KPIs**: revenue ([[kpi.revenue]]), spend ([[kpi.spend]]), ROAS ([[kpi.roas]]), CAC ([[kpi.cac]]) and conversion rate ([[kpi.cvr]]) for last week, the week before and the target.
2. **Find the top movers**: the three channel × KPI pairs with the largest change in absolute money terms, not percentages.
3. **Explain each mover**: use context events (promos, releases, outages) and, for ROAS moves, investigate-roas-drop.
4. **Check data quality**: note any source that was late or incomplete; do not explain a move caused by missing data.
5. **Write three actions**: each with an owner and a date.

## Acceptance
- KPIs are shown against last week and target.
- Three actions with owners.
`,
  },
  {
    name: 'diagnose-checkout-conversion-drop',
    description:
      'Locate where in the funnel a conversion-rate drop happens (landing, product, cart, checkout) and whether it is traffic mix or the site.',
    body_md: `# Diagnose a checkout conversion drop

## Steps
1. **Measure the funnel by stage**: sessions → product views → add to cart → checkout start → purchase, this week vs last week.
2. **Find the stage that moved**: the stage-to-stage rate with the largest relative drop. [[surface.checkout]] problems show as checkout start → purchase.
3. **Split by device and browser**: a drop on one browser or app version is almost always a bug.
4. **Split by traffic source**: a new campaign bringing colder traffic lowers CVR without a site problem.
5. **Check payment errors**: payment provider declines and error logs for the checkout.
6. **Report**: the stage, the segment and the likely cause, with the revenue at stake per day.

## Acceptance
- The stage and segment of the drop are named.
- Mix effect and site effect are separated.
`,
  },
  {
    name: 'validate-campaign-launch',
    description:
      'Checklist before and 24 hours after a new paid campaign goes live: naming, UTMs, conversion goals, budgets and first-day delivery.',
    body_md: `# Validate a campaign launch

## Steps
1. **Check naming**: the campaign name follows the naming convention sheet (channel, market, objective, date).
2. **Check UTMs**: every ad's final URL carries utm_source, utm_medium and utm_campaign matching the name.
3. **Check the conversion goal**: the campaign optimizes for purchase, not for a micro-conversion.
4. **Check budget and schedule**: the daily budget fits the monthly plan (budget-pacing-check).
5. **After 24 hours, check delivery**: impressions, [[kpi.cpm]], [[kpi.ctr]] and spend against plan; zero delivery usually means disapproval.
6. **After 24 hours, check tracking**: sessions with the campaign's UTMs appear in analytics.

## Acceptance
- Naming and UTMs pass.
- First-day delivery and tracking are confirmed, or a fix is underway.
`,
  },
  {
    name: 'explain-todays-anomalies',
    description:
      'Explain the anomalies that fired today (or on a given day): what moved, by how much, and the likely cause from context events and data quality. Use for the morning check or when someone asks what happened.',
    body_md: `# Explain today's anomalies

## Steps
1. **Read the day**: call get_daily_insight for the day (default the latest); note the KPI changes and the anomalies that fired.
2. **List what fired**: call get_anomalies with since set to the day, filtered by the metric if one was given; note each anomaly's channel, direction and size against its baseline.
3. **Look for context**: call list_context_events with active_on set to the day; a release, a promotion, an outage or a tracking change explains most anomalies.
4. **Check the data**: call get_data_quality; a late or incomplete datastream makes a drop that is not real.
5. **Explain each anomaly** in one sentence: what moved ([[kpi.roas]], [[kpi.spend]], [[kpi.cvr]] …), by how much, and the most likely cause with its evidence; say "unexplained" when nothing fits.
6. **Recommend the next step**: for an unexplained ROAS drop, run investigate-roas-drop.

## Acceptance
- Every anomaly of the day is explained or marked unexplained.
- Data quality was checked before a drop was called real.

## Arguments

- \`date\`: The day to explain (YYYY-MM-DD); default the latest day with an insight.
- \`metric\`: Only anomalies of this KPI, e.g. roas.
- \`channel\`: Only anomalies on this channel.
`,
  },
];
