export { claimService, type ClaimService, CLAIM_WAIT_MS } from './service.js';
export { relayLink, type RelayLink } from './relay-link.js';
export { MANUAL_RUN_MAX_SECONDS, MANUAL_RUN_MIN_SECONDS, manualRunRefusal } from './manual.js';
