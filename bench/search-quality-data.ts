// The labelled set of bench:search-quality that lives in the repo: agent-style questions over a
// marketing hub (the demo project plus generated sheets). Each of 100 "finding" sheets records one
// investigation (a KPI, a channel, a market, a cause, a campaign code); 2,000 distractor sheets
// use the same vocabulary in other combinations. A question asks for one finding the way an agent
// would (a sentence, stop words, synonyms and a campaign code or a typo now and then) and is
// relevant to that sheet only; eight hand-written questions ask for the demo's own content.
// Deterministic (mulberry32), so both stores and every run see the same set.

export interface LabelledSet {
  name: string;
  /** Sheets to import (topic_id, title, body). */
  sheets: { topic: string; title: string; body: string }[];
  queries: { id: string; text: string }[];
  /** query id → (hit key as "kind:key") → grade. */
  qrels: Map<string, Map<string, number>>;
}

const KPIS = [
  { word: 'ROAS', says: ['return on ad spend', 'roas'] },
  { word: 'CAC', says: ['customer acquisition cost', 'cac'] },
  { word: 'CTR', says: ['click-through rate', 'ctr'] },
  { word: 'CVR', says: ['conversion rate', 'cvr'] },
  { word: 'CPM', says: ['cost per thousand impressions', 'cpm'] },
  { word: 'AOV', says: ['average order value', 'aov'] },
  { word: 'churn', says: ['churn', 'cancellations'] },
  { word: 'revenue', says: ['revenue', 'sales'] },
];
const CHANNELS = [
  { word: 'paid social', says: ['facebook', 'paid social', 'meta ads'] },
  { word: 'paid search', says: ['google ads', 'paid search', 'search ads'] },
  { word: 'email', says: ['email', 'newsletter'] },
  { word: 'display', says: ['display', 'banner ads'] },
  { word: 'affiliate', says: ['affiliate', 'partners'] },
  { word: 'video', says: ['youtube', 'video'] },
];
const MARKETS = ['germany', 'france', 'spain', 'italy', 'poland', 'sweden', 'brazil', 'mexico', 'japan', 'canada'];
const CAUSES = [
  { text: 'the tracking pixel stopped firing after the checkout release', ask: 'is tracking broken' },
  { text: 'the daily budget cap was reached before noon', ask: 'did we hit the budget cap' },
  { text: 'creative fatigue: the same ads ran for six weeks', ask: 'are the creatives worn out' },
  { text: 'the attribution window changed from 28 to 7 days', ask: 'did attribution change' },
  { text: 'a price increase on the bestsellers', ask: 'was it the price change' },
  { text: 'the bestsellers went out of stock', ask: 'were products out of stock' },
  { text: 'a competitor outbid us on brand keywords', ask: 'is a competitor bidding on us' },
  { text: 'bot traffic inflated clicks from one placement', ask: 'is this bot traffic' },
];
const PROBLEMS = [
  { title: 'drop', ask: ['drop', 'fall', 'go down'] },
  { title: 'spike', ask: ['spike', 'jump', 'shoot up'] },
];

function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function marketingSet(distractors = 2000): LabelledSet {
  const r = rng(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const sheets: LabelledSet['sheets'] = [];
  const queries: LabelledSet['queries'] = [];
  const qrels = new Map<string, Map<string, number>>();
  const used = new Set<string>();
  for (let i = 0; queries.length < 100; i++) {
    const kpi = pick(KPIS);
    const channel = pick(CHANNELS);
    const market = pick(MARKETS);
    const cause = pick(CAUSES);
    const problem = pick(PROBLEMS);
    const combo = `${kpi.word}|${channel.word}|${market}|${cause.text}`;
    if (used.has(combo)) continue;
    used.add(combo);
    const code = `${channel.word.slice(0, 2).toUpperCase()}_${market.slice(0, 2).toUpperCase()}_Q${1 + (i % 4)}_${100 + i}`;
    const topic = `finding-${i}`;
    sheets.push({
      topic,
      title: `${kpi.word} ${problem.title} on ${channel.word} in ${market}`,
      body: `## What happened\n${kpi.says[0]} moved sharply for ${channel.word} in ${market} (campaign ${code}).\n\n## Cause\nWe found that ${cause.text}.\n\n## What we did\nPaused ${code}, annotated the dashboard and told the ${market} team.`,
    });
    const ask = pick(problem.ask);
    const forms = [
      `why did ${pick(kpi.says)} ${ask} on ${pick(channel.says)} in ${market} this week, ${cause.ask}?`,
      `our ${pick(kpi.says)} for ${pick(channel.says)} ${market} seems to ${ask}; ${cause.ask} or something else?`,
      `what happened to campaign ${code}? ${pick(kpi.says)} looks off`,
      `${cause.ask} — ${pick(kpi.says)} ${ask} in ${market} on ${pick(channel.says)}`,
    ];
    const id = `m${queries.length + 1}`;
    queries.push({ id, text: forms[queries.length % forms.length]! });
    qrels.set(id, new Map([[`knowledge:${topic}`, 1]]));
  }
  for (let i = 0; i < distractors; i++) {
    const kpi = pick(KPIS);
    const channel = pick(CHANNELS);
    const market = pick(MARKETS);
    const kind = pick(['weekly report', 'benchmark', 'target', 'naming convention', 'forecast', 'glossary']);
    sheets.push({
      topic: `note-${i}`,
      title: `${kpi.word} ${kind} for ${channel.word} (${market})`,
      body: `## Summary\n${kpi.says[0]} for ${channel.word} in ${market}: ${kind}. ${r() < 0.3 ? `Watch for cases where ${pick(CAUSES).text}.` : ''}\n\nOwner: the ${pick(MARKETS)} team. Reviewed in week ${1 + Math.floor(r() * 52)}.`,
    });
  }
  // The demo's own content, asked as an agent would.
  const demo: [string, string[]][] = [
    [
      'why is our return on ad spend lower this week on facebook',
      ['business_key:kpi.roas', 'business_key:channel.paid_social', 'skill:investigate-roas-drop'],
    ],
    ['how do we compute ROAS', ['knowledge:roas-definition', 'business_key:kpi.roas']],
    ['checkout conversion dropped yesterday, what should I check', ['skill:diagnose-checkout-conversion-drop']],
    ['is our tracking broken after the release', ['skill:check-tracking-after-release']],
    ['which attribution model do we use', ['knowledge:attribution-model']],
    ['explain the anomalies flagged today', ['skill:explain-todays-anomalies']],
    ['prepare the weekly performance review', ['skill:weekly-performance-review']],
    ['are there seasonal effects I should know about in december', ['knowledge:seasonality-calendar']],
  ];
  demo.forEach(([text, rel], i) => {
    const id = `d${i + 1}`;
    queries.push({ id, text });
    qrels.set(id, new Map(rel.map((k) => [k, 1])));
  });
  return { name: 'marketing hub (own, labelled)', sheets, queries, qrels };
}
