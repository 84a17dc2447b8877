import { PageTitle } from '../ui.js';

const stub = (title: string) => () => <PageTitle>{title}</PageTitle>;

export const sections = { connections: stub('connections'), datastreams: stub('datastreams'), runs: stub('runs') };
