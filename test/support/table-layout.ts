import type { Locator } from 'playwright-core';

/**
 * The height of a table's tallest body row, in lines of the table's own text: a table that scrolls
 * sideways should not squeeze a free-text column to a word per line, which makes every row grow
 * several lines tall at a phone's width.
 */
export function tallestRowInLines(table: Locator): Promise<number> {
  return table.evaluate((el) => {
    const style = getComputedStyle(el);
    // "normal" line height is about 1.2 em in every engine we render with.
    const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2;
    const rows = [...el.querySelectorAll('tbody tr')].map((tr) => tr.getBoundingClientRect().height);
    return rows.length === 0 ? 0 : Math.max(...rows) / line;
  });
}
