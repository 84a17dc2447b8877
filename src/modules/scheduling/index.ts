export { SchedulePlan } from './scheduling.service.js';
