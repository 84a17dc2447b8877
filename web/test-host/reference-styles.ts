import type { McpUiHostStyles } from '@modelcontextprotocol/ext-apps/app-bridge';

/**
 * The style variables the MCP Apps reference host hands every view: the defaults of
 * @modelcontextprotocol/ext-apps' examples/basic-host (its HOST_STYLE_VARIABLES), one `light-dark()`
 * value per variable, so the view's `color-scheme` picks the side. A view must read well under a
 * host's palette as under ours (test/support/view-harness.ts checks both).
 */
const pairs: Record<string, [light: string, dark: string]> = {
  'background-primary': ['#ffffff', '#1a1a1a'],
  'background-secondary': ['#f5f5f5', '#2d2d2d'],
  'background-tertiary': ['#e5e5e5', '#404040'],
  'background-inverse': ['#1a1a1a', '#ffffff'],
  'background-ghost': ['rgba(255,255,255,0)', 'rgba(26,26,26,0)'],
  'background-info': ['#eff6ff', '#1e3a5f'],
  'background-danger': ['#fef2f2', '#7f1d1d'],
  'background-success': ['#f0fdf4', '#14532d'],
  'background-warning': ['#fefce8', '#713f12'],
  'background-disabled': ['rgba(255,255,255,0.5)', 'rgba(26,26,26,0.5)'],
  'text-primary': ['#1f2937', '#f3f4f6'],
  'text-secondary': ['#6b7280', '#9ca3af'],
  'text-tertiary': ['#9ca3af', '#6b7280'],
  'text-inverse': ['#f3f4f6', '#1f2937'],
  'text-ghost': ['rgba(107,114,128,0.5)', 'rgba(156,163,175,0.5)'],
  'text-info': ['#1d4ed8', '#60a5fa'],
  'text-danger': ['#b91c1c', '#f87171'],
  'text-success': ['#15803d', '#4ade80'],
  'text-warning': ['#a16207', '#fbbf24'],
  'text-disabled': ['rgba(31,41,55,0.5)', 'rgba(243,244,246,0.5)'],
  'border-primary': ['#e5e7eb', '#404040'],
  'border-secondary': ['#d1d5db', '#525252'],
  'border-tertiary': ['#f3f4f6', '#374151'],
  'border-inverse': ['rgba(255,255,255,0.3)', 'rgba(0,0,0,0.3)'],
  'border-ghost': ['rgba(229,231,235,0)', 'rgba(64,64,64,0)'],
  'border-info': ['#93c5fd', '#1e40af'],
  'border-danger': ['#fca5a5', '#991b1b'],
  'border-success': ['#86efac', '#166534'],
  'border-warning': ['#fde047', '#854d0e'],
  'border-disabled': ['rgba(229,231,235,0.5)', 'rgba(64,64,64,0.5)'],
  'ring-primary': ['#3b82f6', '#60a5fa'],
  'ring-secondary': ['#6b7280', '#9ca3af'],
  'ring-inverse': ['#ffffff', '#1f2937'],
  'ring-info': ['#2563eb', '#3b82f6'],
  'ring-danger': ['#dc2626', '#ef4444'],
  'ring-success': ['#16a34a', '#22c55e'],
  'ring-warning': ['#ca8a04', '#eab308'],
};

const fixed: Record<string, string> = {
  '--font-sans': "system-ui, -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, sans-serif",
  '--font-mono': "ui-monospace, 'SF Mono', Monaco, 'Cascadia Code', monospace",
  '--font-weight-normal': '400',
  '--font-weight-medium': '500',
  '--font-weight-semibold': '600',
  '--font-weight-bold': '700',
  '--font-text-xs-size': '0.75rem',
  '--font-text-sm-size': '0.875rem',
  '--font-text-md-size': '1rem',
  '--font-text-lg-size': '1.125rem',
  '--font-heading-xs-size': '0.75rem',
  '--font-heading-sm-size': '0.875rem',
  '--font-heading-md-size': '1rem',
  '--font-heading-lg-size': '1.25rem',
  '--font-heading-xl-size': '1.5rem',
  '--font-heading-2xl-size': '1.875rem',
  '--font-heading-3xl-size': '2.25rem',
  '--font-text-xs-line-height': '1.4',
  '--font-text-sm-line-height': '1.4',
  '--font-text-md-line-height': '1.5',
  '--font-text-lg-line-height': '1.5',
  '--font-heading-xs-line-height': '1.4',
  '--font-heading-sm-line-height': '1.4',
  '--font-heading-md-line-height': '1.4',
  '--font-heading-lg-line-height': '1.3',
  '--font-heading-xl-line-height': '1.25',
  '--font-heading-2xl-line-height': '1.2',
  '--font-heading-3xl-line-height': '1.1',
  '--border-radius-xs': '2px',
  '--border-radius-sm': '4px',
  '--border-radius-md': '6px',
  '--border-radius-lg': '8px',
  '--border-radius-xl': '12px',
  '--border-radius-full': '9999px',
  '--border-width-regular': '1px',
  '--shadow-hairline': '0 1px 2px 0 rgba(0, 0, 0, 0.05)',
  '--shadow-sm': '0 1px 3px 0 rgba(0, 0, 0, 0.1), 0 1px 2px -1px rgba(0, 0, 0, 0.1)',
  '--shadow-md': '0 4px 6px -1px rgba(0, 0, 0, 0.1), 0 2px 4px -2px rgba(0, 0, 0, 0.1)',
  '--shadow-lg': '0 10px 15px -3px rgba(0, 0, 0, 0.1), 0 4px 6px -4px rgba(0, 0, 0, 0.1)',
};

export const REFERENCE_HOST_STYLES: McpUiHostStyles = {
  variables: {
    ...Object.fromEntries(
      Object.entries(pairs).map(([name, [light, dark]]) => [`--color-${name}`, `light-dark(${light}, ${dark})`]),
    ),
    ...fixed,
  } as McpUiHostStyles['variables'],
};

/**
 * Another host's palette: the reference host's with a brighter info pair (Tailwind's blue-600 on
 * blue-100, 4.2:1), as hosts built on such a palette hand it. Text a view draws in the info colour
 * on the info surface (a selected row's link) falls below AA there unless it is mixed toward the
 * primary text as the view's other tinted text is (theme.css, --ch-text-*).
 */
export const FOREIGN_HOST_STYLES: McpUiHostStyles = {
  variables: {
    ...REFERENCE_HOST_STYLES.variables,
    '--color-text-info': 'light-dark(#2563eb, #60a5fa)',
    '--color-background-info': 'light-dark(#dbeafe, #1e3a5f)',
  } as McpUiHostStyles['variables'],
};
