const EPOCH = Date.parse('2000-01-03T00:00:00Z');
/** Day number: days since Monday 2000-01-03, so d mod 7 is the weekday (0 = Monday). */
export const dayNumber = (date: string) => Math.round((Date.parse(`${date}T00:00:00Z`) - EPOCH) / 86_400_000);
export const dateOf = (d: number) => new Date(EPOCH + d * 86_400_000).toISOString().slice(0, 10);
