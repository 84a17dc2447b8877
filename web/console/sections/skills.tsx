import { PageTitle } from '../ui.js';

const stub = (title: string) => () => <PageTitle>{title}</PageTitle>;

export const sections = { skills: stub('skills') };
