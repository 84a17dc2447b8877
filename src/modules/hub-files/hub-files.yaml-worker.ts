import { parentPort } from 'node:worker_threads';
import { locateTaxonomy } from './hub-files.yaml.js';

/**
 * The worker thread that reads a large taxonomy.yaml (hub-files.taxonomy.ts): YAML of a few MiB
 * takes seconds to compose, which on the service's thread would stop every other request.
 */
parentPort?.on('message', (message: { text: string; file: string }) => {
  parentPort?.postMessage(locateTaxonomy(message.text, message.file));
});
