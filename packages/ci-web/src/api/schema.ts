// Types of the control-plane API generated from its OpenAPI description (@app/web-kit/api/ci), named for the
// pages that read them. Hand-written shapes in types.ts predate them; new code uses these.
import type { ResponseOf } from '@app/web-kit';
import type { paths } from '@app/web-kit/api/ci';

export type WebhookDeliveries = ResponseOf<paths, '/api/v1/admin/webhooks'>;
export type WebhookDelivery = ResponseOf<paths, '/api/v1/admin/webhooks/{id}'>;
export type RetentionStats = ResponseOf<paths, '/api/v1/admin/retention'>;
export type StorageSettings = ResponseOf<paths, '/api/v1/admin/storage'>;
export type GlobalSecrets = ResponseOf<paths, '/api/v1/admin/secrets'>;
export type ServiceAccounts = ResponseOf<paths, '/api/v1/admin/service-accounts'>;
export type ServiceAccountToken = ResponseOf<paths, '/api/v1/admin/service-accounts/{id}/tokens', 'post'>;
export type AuthProviders = ResponseOf<paths, '/api/v1/admin/auth/providers'>;
export type AgentList = ResponseOf<paths, '/api/v1/agents'>;
export type RunDetailT = ResponseOf<paths, '/api/v1/runs/{id}'>;
export type JobRunT = RunDetailT['stages'][number]['jobs'][number];
export type GateT = NonNullable<JobRunT['gate']>;
export type TestReport = ResponseOf<paths, '/api/v1/runs/{id}/tests'>;
export type RunList = ResponseOf<paths, '/api/v1/runs'>;
export type NotificationDeliveries = ResponseOf<paths, '/api/v1/projects/{slug}/notifications/deliveries'>;
