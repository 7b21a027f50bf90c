// An action input that makes no sense: the step fails with exit 42 before anything runs.
import { InputError } from '../types/errors.js';

export class ActionInputError extends InputError {}
