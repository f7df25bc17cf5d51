/**
 * An account's quota as the console shows it. Quotas do not exist yet: every account has none
 * (`null`). The quota work (QUOTA_EXCEEDED budgets per account) fills this one function in,
 * and the status document and the console page pick it up unchanged.
 */
import type { Account } from '../../core/store/accounts.js';
import type { Services } from '../context.js';

export interface Quota {
  /** Charged results (pages) allowed per period. */
  limit: number;
  period: 'day' | 'month';
  /** Charged results used in the current period. */
  used: number;
}

export function accountQuota(_svc: Services, _account: Account): Quota | null {
  return null;
}
