import { z } from 'zod';
import { ProjectRef } from '../projects/projects.schemas.js';

export const ContextHubInput = z.object({ project_id: ProjectRef }).strict();
