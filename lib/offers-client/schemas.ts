/**
 * The parts of the offers API contract (lib/offers/schemas.ts) the portal uses: its pages, components
 * and lib/portal reach the offers service's types only through here, never lib/offers itself, so the
 * two services stay apart except for the shared API contract.
 */
export {
  AdminGame,
  AdminPlayerState,
  AdminPlayerSummary,
  AdminWebhooks,
  DeliveryId,
  DeliveryStats,
  DeliveryStatus,
  ClientCampaignsResponse,
  Identifier,
  Offer,
  OfferStatus,
  OneTimeTokenRedeemRequest,
  PlayerReferral,
  Reward,
  RewardGrantedEvent,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointInput,
  WebhookEndpointPatch,
  WebhookEventType,
  WebhookReplayed,
  WebhookReplayRequest,
  WebhookSecretRotated,
  WebhookTestSent,
  WebhookUrl,
} from "../offers/schemas";
