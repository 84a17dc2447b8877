import { PageTitle } from '../ui.js';

const stub = (title: string) => () => <PageTitle>{title}</PageTitle>;

export const sections = { insights: stub('insights'), 'data-quality': stub('data-quality') };
