/**
 * The first-run wizard's progress, kept on the server so a reload (or another browser) resumes
 * it at the step it reached instead of dropping the steps after the owner. It lives in the data
 * folder's config.json (`wizardStep`), beside the choices the wizard makes; null once finished,
 * and never set on an install whose owner came from the environment or the CLI.
 */
import path from 'node:path';
import type { Deps } from '../deps.js';
import { HeraldError } from '../../core/errors.js';
import type { SettingsRepo } from '../../db/repos/settings.repo.js';
import type { UsersService } from '../users/users.service.js';

export const WIZARD_STEPS = ['secrets', 'defaults', 'networks'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export class WizardService {
  constructor(
    private readonly deps: Deps,
    private readonly users: UsersService,
    private readonly settings: SettingsRepo,
  ) {}

  private get file() {
    return path.join(this.deps.config.dataDir, 'config.json');
  }

  /** The step the wizard resumes at, or null when there is none to resume. */
  step(): WizardStep | null {
    if (this.users.count() === 0) return null;
    const saved = this.settings.readFile(this.file).wizardStep;
    return (WIZARD_STEPS as readonly unknown[]).includes(saved) ? (saved as WizardStep) : null;
  }

  /** The owner was just created by the wizard: the next step is where secrets live. */
  begin(): void {
    this.settings.saveFile(this.file, { wizardStep: WIZARD_STEPS[0] });
  }

  /** Moves the wizard on (or back) to `step`; null finishes it. Owner only. */
  set(userId: string, step: WizardStep | null): WizardStep | null {
    if (!this.users.isOwner(userId))
      throw new HeraldError('UNAUTHORIZED', 'Only the owner of this install goes through the first-run wizard');
    this.settings.saveFile(this.file, { wizardStep: step });
    return step;
  }
}
