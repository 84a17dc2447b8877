// node-postgres ships no types for its value serializer; PGlite's statement runner reuses it so
// both stores serialize parameters identically.
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
