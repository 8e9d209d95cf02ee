-- One ALTER TABLE per table: each rewrites its table once (under an ACCESS EXCLUSIVE lock), not once per column.
ALTER TABLE "accounts"
  ALTER COLUMN "id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "api_keys"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "roles"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "users"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "practitioner_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "sessions"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "user_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "sign_in_attempts"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "request_log"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "api_key_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "webhook_messages"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "endpoint_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "webhook_attempts"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "endpoint_id" SET DATA TYPE bigint,
  ALTER COLUMN "message_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "audit_log"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "actor_id" SET DATA TYPE bigint,
  ALTER COLUMN "entity_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "deleted_entities"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "entity_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "events"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "entity_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "idempotency_keys"
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "practice_settings"
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "locations"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "practitioners"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "appointment_types"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "modalities"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "resources"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "location_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "practitioner_availabilities"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "resource_id" SET DATA TYPE bigint,
  ALTER COLUMN "practitioner_id" SET DATA TYPE bigint,
  ALTER COLUMN "location_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "tags"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "payment_methods"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "billable_items"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "referral_sources"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "addresses"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "entity_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "numbers"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "patient_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "patient_tags"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "patient_id" SET DATA TYPE bigint,
  ALTER COLUMN "tag_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "patients"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "default_location_id" SET DATA TYPE bigint,
  ALTER COLUMN "referral_source_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "patient_log_tags"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "patient_log_id" SET DATA TYPE bigint,
  ALTER COLUMN "tag_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "patient_logs"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "patient_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "clinical_notes"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "patient_id" SET DATA TYPE bigint,
  ALTER COLUMN "practitioner_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "form_templates"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "files"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "patient_id" SET DATA TYPE bigint,
  ALTER COLUMN "patient_log_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "care_plan_members"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "care_plan_id" SET DATA TYPE bigint,
  ALTER COLUMN "patient_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "care_plans"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "tag_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "appointments"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "patient_id" SET DATA TYPE bigint,
  ALTER COLUMN "practitioner_id" SET DATA TYPE bigint,
  ALTER COLUMN "location_id" SET DATA TYPE bigint,
  ALTER COLUMN "appointment_type_id" SET DATA TYPE bigint,
  ALTER COLUMN "resource_id" SET DATA TYPE bigint,
  ALTER COLUMN "group_master_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "diary_versions"
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "invoices"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "patient_id" SET DATA TYPE bigint,
  ALTER COLUMN "practitioner_id" SET DATA TYPE bigint,
  ALTER COLUMN "location_id" SET DATA TYPE bigint,
  ALTER COLUMN "appointment_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "line_items"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "invoice_id" SET DATA TYPE bigint,
  ALTER COLUMN "billable_item_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "payments"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "patient_id" SET DATA TYPE bigint,
  ALTER COLUMN "payment_method_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "payment_allocations"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "payment_id" SET DATA TYPE bigint,
  ALTER COLUMN "invoice_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "refunds"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "payment_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "oauth_clients"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "oauth_grants"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "user_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "oauth_codes"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "grant_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "oauth_tokens"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint,
  ALTER COLUMN "grant_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "file_chunks"
  ALTER COLUMN "id" SET DATA TYPE bigint,
  ALTER COLUMN "account_id" SET DATA TYPE bigint;
--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "roles" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "sign_in_attempts" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "request_log" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "webhook_messages" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "deleted_entities" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "locations" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "practitioners" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "appointment_types" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "modalities" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "resources" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "practitioner_availabilities" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "tags" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "payment_methods" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "billable_items" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "referral_sources" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "addresses" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "numbers" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "patient_tags" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "patients" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "patient_log_tags" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "patient_logs" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "clinical_notes" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "form_templates" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "files" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "care_plan_members" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "care_plans" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "appointments" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "line_items" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "payment_allocations" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "oauth_clients" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "oauth_grants" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "oauth_codes" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "oauth_tokens" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
--> statement-breakpoint
ALTER TABLE "file_chunks" ALTER COLUMN "id" SET MAXVALUE 9223372036854775807;
