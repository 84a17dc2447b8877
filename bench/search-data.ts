// Generates a large context hub for bench:search: 100,000 Knowledge sheets, 10,000 Skills and
// 2,000 business keys with links, written in batches (unnest arrays) straight into the tables.
// The text is built from a marketing vocabulary with a skewed distribution, so common words
// (roas, spend) match thousands of rows and rare ones (a SKU, a market) only a few.
import type { SqlExecutor } from '../src/platform/db/database.js';

export interface HubSize {
  knowledge: number;
  skills: number;
  keys: number;
}

const KPIS = [
  'roas',
  'cac',
  'cpa',
  'cvr',
  'ctr',
  'cpm',
  'aov',
  'revenue',
  'spend',
  'margin',
  'ltv',
  'retention',
  'churn',
  'sessions',
  'bounce',
  'mer',
  'cpc',
  'impressions',
  'reach',
  'frequency',
  'refunds',
  'returns',
  'basket',
  'subscribers',
  'unsubscribes',
  'installs',
  'signups',
  'trials',
  'upsell',
  'discount',
  'coupon',
  'payback',
  'contribution',
  'incrementality',
  'lift',
  'viewability',
  'completion',
  'engagement',
  'shares',
  'leads',
];
const CHANNELS = [
  'paid search',
  'paid social',
  'email',
  'affiliate',
  'display',
  'video',
  'organic search',
  'referral',
  'push',
  'sms',
  'podcast',
  'retail media',
];
const SURFACES = [
  'checkout',
  'cart',
  'landing page',
  'product page',
  'homepage',
  'search results',
  'account',
  'app onboarding',
  'wishlist',
  'order confirmation',
];
const TOPICS = [
  'definition',
  'calculation',
  'attribution',
  'pacing',
  'forecast',
  'anomaly',
  'benchmark',
  'target',
  'tracking',
  'reporting delay',
  'seasonality',
  'budget',
  'experiment',
  'naming convention',
  'data quality',
];
const VERBS = [
  'compare',
  'check',
  'split',
  'reconcile',
  'review',
  'escalate',
  'annotate',
  'verify',
  'segment',
  'forecast',
];
const MARKETS = Array.from(
  { length: 60 },
  (_, i) => `market${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`,
);

/** A small deterministic PRNG (mulberry32): the same hub on every run and on both stores. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generate(size: HubSize) {
  const r = rng(42);
  // Mildly skewed pick: the first words of each list are about twice as common as the last.
  const pick = <T>(list: T[]): T => list[Math.floor(list.length * r() * (0.5 + 0.5 * r()))]!;
  const sentence = () =>
    `${pick(VERBS)} ${pick(KPIS)} for ${pick(CHANNELS)} on the ${pick(SURFACES)} in ${pick(MARKETS)}; the ${pick(TOPICS)} uses sku${Math.floor(r() * 50000)}.`;

  const keys: { key: string; label: string; parent: string | null; synonyms: string[]; description: string }[] = [];
  for (const root of ['kpi', 'channel', 'surface', 'market', 'topic'])
    keys.push({ key: root, label: root.toUpperCase(), parent: null, synonyms: [], description: `All ${root} keys.` });
  for (const k of KPIS)
    keys.push({
      key: `kpi.${k}`,
      label: k.toUpperCase(),
      parent: 'kpi',
      synonyms: [`${k} metric`],
      description: `The ${k} KPI.`,
    });
  for (const c of CHANNELS)
    keys.push({
      key: `channel.${c.replace(/ /g, '_')}`,
      label: c,
      parent: 'channel',
      synonyms: [],
      description: `The ${c} channel.`,
    });
  for (const s of SURFACES)
    keys.push({
      key: `surface.${s.replace(/ /g, '_')}`,
      label: s,
      parent: 'surface',
      synonyms: [],
      description: `The ${s} surface.`,
    });
  for (const m of MARKETS)
    keys.push({ key: `market.${m}`, label: m, parent: 'market', synonyms: [], description: `Market ${m}.` });
  for (let i = 0; keys.length < size.keys; i++) {
    const kpi = KPIS[i % KPIS.length]!;
    keys.push({
      key: `kpi.${kpi}.variant_${i}`,
      label: `${kpi} variant ${i}`,
      parent: `kpi.${kpi}`,
      synonyms: [`${kpi} v${i}`],
      description: sentence(),
    });
  }

  const knowledge = Array.from({ length: size.knowledge }, (_, i) => {
    const title = `${pick(KPIS).toUpperCase()} ${pick(TOPICS)} for ${pick(CHANNELS)} (${pick(MARKETS)} ${i})`;
    return {
      id: `kn_bench_${i}`,
      topic_id: `sheet-${i}`,
      title,
      body_md: Array.from({ length: 3 + Math.floor(r() * 3) }, sentence).join('\n\n'),
    };
  });
  const skills = Array.from({ length: size.skills }, (_, i) => {
    const refs = [`kpi.${pick(KPIS)}`, `channel.${pick(CHANNELS).replace(/ /g, '_')}`];
    const steps = Array.from(
      { length: 5 + Math.floor(r() * 5) },
      (_, j) => `${j + 1}. **${pick(VERBS)} ${pick(KPIS)}**: ${sentence()}`,
    );
    return {
      id: `sk_bench_${i}`,
      name: `${pick(VERBS)}-${pick(KPIS)}-${pick(SURFACES).replace(/ /g, '-')}-${i}`,
      description: sentence(),
      body_md: `## Steps\n${steps.join('\n')}\n\nSee [[${refs[0]}]] and [[${refs[1]}]].`,
      refs,
    };
  });
  const links = knowledge.flatMap((k, i) => {
    const a = `kpi.${KPIS[i % KPIS.length]}`;
    return i % 3 === 0
      ? [
          { id: `bl_k_${i}`, type: 'knowledge', source: k.id, key: a },
          { id: `bl_m_${i}`, type: 'knowledge', source: k.id, key: `market.${MARKETS[i % MARKETS.length]}` },
        ]
      : [{ id: `bl_k_${i}`, type: 'knowledge', source: k.id, key: a }];
  });
  for (let i = 0; i < skills.length; i += 2)
    links.push({
      id: `bl_s_${i}`,
      type: 'skill',
      source: skills[i]!.id,
      key: `surface.${SURFACES[i % SURFACES.length]!.replace(/ /g, '_')}`,
    });
  return { keys, knowledge, skills, links };
}

const BATCH = 5000;

async function inBatches<T>(rows: T[], write: (batch: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await write(rows.slice(i, i + BATCH));
}

/** Writes the generated hub into `projectId` (which must exist) and analyzes the tables. */
export async function loadHub(db: SqlExecutor, projectId: string, size: HubSize): Promise<{ links: number }> {
  const hub = generate(size);
  const now = new Date('2026-11-01T00:00:00Z');
  // Like any bulk import: drop the GIN indexes, load, build them again (far faster than updating
  // them row by row); the rebuilt indexes are exactly the migration's.
  const gin = await db.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN ('skills', 'knowledge', 'business_keys') AND indexdef LIKE '%USING gin%'`,
  );
  for (const index of gin) await db.query(`DROP INDEX ${index.indexname}`);
  // Parents first: the parent foreign key is checked row by row.
  for (const depth of [0, 1, 2]) {
    const level = hub.keys.filter((k) => k.key.split('.').length === depth + 1);
    await inBatches(level, async (b) => {
      await db.query(
        `INSERT INTO business_keys (project_id, key, label, description, parent_key, synonyms, created_at, updated_at, title_text)
         SELECT $1, k, l, d, p, string_to_array(s, '|'), $7, $7, t
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $8::text[]) AS u(k, l, d, p, s, t)`,
        [
          projectId,
          b.map((k) => k.key),
          b.map((k) => k.label),
          b.map((k) => k.description),
          b.map((k) => k.parent),
          b.map((k) => k.synonyms.join('|')),
          now,
          b.map((k) => [k.label, k.key.replace(/[._-]+/g, ' '), ...k.synonyms].join(' ')),
        ],
      );
    });
  }
  await inBatches(hub.knowledge, async (b) => {
    await db.query(
      `INSERT INTO knowledge (id, project_id, topic_id, version_number, title, body_md, created_at, updated_at)
       SELECT i, $1, t, 1, ti, bo, $6, $6 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS u(i, t, ti, bo)`,
      [projectId, b.map((k) => k.id), b.map((k) => k.topic_id), b.map((k) => k.title), b.map((k) => k.body_md), now],
    );
  });
  await inBatches(hub.skills, async (b) => {
    await db.query(
      `INSERT INTO skills (id, project_id, name, version, description, body_md, mdm_references, created_at, updated_at)
       SELECT i, $1, n, 1, d, bo, string_to_array(r, '|'), $6, $6 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $7::text[]) AS u(i, n, d, bo, r)`,
      [
        projectId,
        b.map((s) => s.id),
        b.map((s) => s.name),
        b.map((s) => s.description),
        b.map((s) => s.body_md),
        now,
        b.map((s) => s.refs.join('|')),
      ],
    );
  });
  await inBatches(hub.links, async (b) => {
    await db.query(
      `INSERT INTO business_links (id, project_id, relation_type, source_type, source_id, business_key, created_at, created_by)
       SELECT i, $1, 'explains', t, s, k, $6, 'bench' FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS u(i, t, s, k)`,
      [projectId, b.map((l) => l.id), b.map((l) => l.type), b.map((l) => l.source), b.map((l) => l.key), now],
    );
  });
  for (const index of gin) await db.query(index.indexdef);
  for (const table of ['business_keys', 'knowledge', 'skills', 'business_links']) await db.query(`ANALYZE ${table}`);
  return { links: hub.links.length };
}

/** The fixed query mix: common and rare words, a typo, multi-word questions, operator noise. */
export const QUERY_MIX = [
  'roas',
  'roaz',
  'roas drop paid social',
  'checkout conversion',
  'budget pacing',
  'tracking after release',
  'cac payback',
  'cpm frequency video',
  'sku31337',
  'marketq1 anomaly',
  'attribution model',
  'seasonality forecast',
  `"roas" & | ! :* \\ 'spend'`,
  'how do we compute retention for email in marketb0',
  'nothingmatchesthisword',
  'landing page bounce',
];
