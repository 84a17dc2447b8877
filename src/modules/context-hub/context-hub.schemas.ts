import { z } from 'zod';
import { ProjectRef } from '../projects/index.js';

export const ContextHubInput = z.object({ project_id: ProjectRef }).strict();
