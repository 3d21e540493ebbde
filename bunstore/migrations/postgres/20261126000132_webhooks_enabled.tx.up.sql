-- OpenJury schema: the enabled endpoints, indexed. PostgreSQL. Keep in step
-- with ../sqlite.
--
-- The webhook dispatcher asks whether any endpoint is enabled before it
-- reads the events it has not dispatched: with none, it moves past them
-- without reading them (bunstore's webhookStore.Dispatch). The answer is
-- the first entry of this index, however many endpoints are disabled.
CREATE INDEX webhooks_enabled_idx ON webhooks (created_at) WHERE disabled_at IS NULL;
