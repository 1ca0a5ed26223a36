/**
 * Campaigns (contract section 5): rule sets stored under a caller-chosen id (1..50 characters,
 * unique), and validation of a receipt against one. Settings are checked with the same schema as an
 * inline rule set; validating against a campaign stores the scan (with the campaign id) so later
 * receipts are checked against it for duplicates.
 */
import { ReceiptKitError } from '../errors.js';
import type { InputSource } from '../input/types.js';
import type { Store } from '../store/types.js';
import type {
  ValidateOptionsInput, ValidationResult, ValidationRules, ValidationRulesInput,
} from '../contract/validation.js';
import { campaignIdSchema, parseWithField, validationRulesSchema } from '../contract/validation.js';

export interface CampaignCreated { result: 'Successfully created campaign settings'; statusCode: 201 }
export interface CampaignUpdated { result: 'Successfully updated campaign settings'; statusCode: 200 }
export interface CampaignDeleted { result: 'Successfully deleted campaign settings'; statusCode: 200 }

export interface Campaigns {
  /** Stores new settings; CAMPAIGN_EXISTS (409) when the id is taken. */
  create(campaignId: string, settings: ValidationRulesInput): Promise<CampaignCreated>;
  /** The settings; CAMPAIGN_NOT_FOUND (404) when there are none. */
  get(campaignId: string): Promise<ValidationRules>;
  /** Every campaign id, oldest first. */
  list(): Promise<string[]>;
  /** Replaces the whole settings; CAMPAIGN_NOT_FOUND when there are none. */
  update(campaignId: string, settings: ValidationRulesInput): Promise<CampaignUpdated>;
  /** Removes the settings (stored scans stay for similarity checks); CAMPAIGN_NOT_FOUND when there are none. */
  delete(campaignId: string): Promise<CampaignDeleted>;
  /** Validates a receipt against the campaign's settings and stores the scan (unless `incognito`). */
  validate(campaignId: string, input: InputSource, options?: ValidateOptionsInput): Promise<ValidationResult>;
}

export function notFound(campaignId: string): ReceiptKitError {
  return new ReceiptKitError('CAMPAIGN_NOT_FOUND', `Cannot find settings for the campaign ID - ${campaignId}`, { field: 'campaignId' });
}

function checkId(campaignId: unknown): string {
  return parseWithField(campaignIdSchema, campaignId, 'campaignId') as string;
}

export interface CampaignDeps {
  /** The open store (throws ENGINE_CLOSED when the engine is closed). */
  store(): Store;
  /** Validates with parsed rules, as the campaign's endpoint kind. */
  validate(rules: ValidationRules, input: InputSource, options: ValidateOptionsInput | undefined, campaignId: string): Promise<ValidationResult>;
}

export function createCampaigns(deps: CampaignDeps): Campaigns {
  return {
    async create(campaignId, settings) {
      const id = checkId(campaignId);
      const rules = parseWithField(validationRulesSchema, settings, 'campaign settings');
      if (!await deps.store().createCampaign(id, rules)) {
        throw new ReceiptKitError('CAMPAIGN_EXISTS', `Campaign settings already exist for the campaign ID - ${id}`, { field: 'campaignId' });
      }
      return { result: 'Successfully created campaign settings', statusCode: 201 };
    },
    async get(campaignId) {
      const id = checkId(campaignId);
      const rules = await deps.store().getCampaign(id);
      if (!rules) throw notFound(id);
      return rules;
    },
    async list() {
      return deps.store().listCampaigns();
    },
    async update(campaignId, settings) {
      const id = checkId(campaignId);
      const rules = parseWithField(validationRulesSchema, settings, 'campaign settings');
      if (!await deps.store().updateCampaign(id, rules)) throw notFound(id);
      return { result: 'Successfully updated campaign settings', statusCode: 200 };
    },
    async delete(campaignId) {
      const id = checkId(campaignId);
      if (!await deps.store().deleteCampaign(id)) throw notFound(id);
      return { result: 'Successfully deleted campaign settings', statusCode: 200 };
    },
    async validate(campaignId, input, options) {
      const id = checkId(campaignId);
      const rules = await deps.store().getCampaign(id);
      if (!rules) throw notFound(id);
      return deps.validate(rules, input, options, id);
    },
  };
}
