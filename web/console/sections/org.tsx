import { PageTitle } from '../ui.js';

const stub = (title: string) => () => <PageTitle>{title}</PageTitle>;

export const sections = { settings: stub('settings'), members: stub('members'), audit: stub('audit') };
