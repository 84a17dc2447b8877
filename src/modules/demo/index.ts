export { contextHubDemoSeeder } from './demo.context-hub.js';
export { datastreamsDemoSeeder } from './demo.datastreams.js';
export { DEMO_PROJECT_ID, DemoSeed, type DemoSeeder, DEMO_TIMEZONE } from './demo.service.js';
export { DEMO_SKILLS } from './demo.skills.js';
