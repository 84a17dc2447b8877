export { DATASTREAM_QUEUE, type IngestionDeps, IngestionService, runResourceUri } from './ingestion.service.js';
export { ChunkedCopyLander, LANDING_CHUNK_ROWS, type RawLander, UnnestLander } from './raw-writer.js';
export { RawCsvEncoder } from './raw-writer.csv.js';
