-- Keys that distribute (issue 28 §2): every tenant table's primary key becomes (account_id, id), and
-- every unique index includes account_id, so the tables can be distributed by account_id (Citus). The
-- (account_id, id) indexes the primary keys replace are dropped.
--
-- Online: run as it is, each new key and index is built under the table's lock (minutes on a table of
-- millions of rows). On a large database, build them first without blocking writes (psql, outside a
-- transaction; each statement may take a while), then migrate: the migration finds them by name and only
-- swaps the constraints, a brief lock and no scan (the columns are NOT NULL already). The hash and token
-- indexes of api_keys, sessions and oauth_* keep their names and are rebuilt here: small tables.
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "api_keys_account_id_key" ON "api_keys" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "roles_account_id_key" ON "roles" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "users_account_id_key" ON "users" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "sessions_account_id_key" ON "sessions" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "sign_in_attempts_account_id_key" ON "sign_in_attempts" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "request_log_account_id_key" ON "request_log" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "webhook_endpoints_account_id_key" ON "webhook_endpoints" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "webhook_messages_account_id_key" ON "webhook_messages" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "webhook_attempts_account_id_key" ON "webhook_attempts" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "audit_log_account_id_key" ON "audit_log" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "deleted_entities_account_id_key" ON "deleted_entities" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "events_account_id_key" ON "events" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "locations_account_id_key" ON "locations" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "practitioners_account_id_key" ON "practitioners" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "appointment_types_account_id_key" ON "appointment_types" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "modalities_account_id_key" ON "modalities" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "resources_account_id_key" ON "resources" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "practitioner_availabilities_account_id_key" ON "practitioner_availabilities" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "tags_account_id_key" ON "tags" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "payment_methods_account_id_key" ON "payment_methods" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "billable_items_account_id_key" ON "billable_items" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "referral_sources_account_id_key" ON "referral_sources" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "addresses_account_id_key" ON "addresses" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "numbers_account_id_key" ON "numbers" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "patient_tags_account_id_key" ON "patient_tags" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "patients_account_id_key" ON "patients" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "patient_log_tags_account_id_key" ON "patient_log_tags" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "patient_logs_account_id_key" ON "patient_logs" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "clinical_notes_account_id_key" ON "clinical_notes" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "form_templates_account_id_key" ON "form_templates" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "files_account_id_key" ON "files" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "care_plan_members_account_id_key" ON "care_plan_members" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "care_plans_account_id_key" ON "care_plans" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "appointments_account_id_key" ON "appointments" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "invoices_account_id_key" ON "invoices" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "line_items_account_id_key" ON "line_items" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "payments_account_id_key" ON "payments" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "payment_allocations_account_id_key" ON "payment_allocations" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "refunds_account_id_key" ON "refunds" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "oauth_clients_account_id_key" ON "oauth_clients" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "oauth_grants_account_id_key" ON "oauth_grants" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "oauth_codes_account_id_key" ON "oauth_codes" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "oauth_tokens_account_id_key" ON "oauth_tokens" ("account_id","id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "file_chunks_account_id_key" ON "file_chunks" ("account_id","id");
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS "request_log_sweep_idx" ON "request_log" ("id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "events_account_event_uq" ON "events" ("account_id","event_id");
--   CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "file_chunks_account_key_seq_uq" ON "file_chunks" ("account_id","file_key","seq");
--
-- Foreign keys, each with account_id (docs/decisions.md, "Foreign keys"): added NOT VALID (a brief lock,
-- no scan), then validated (reads the table). On a large database run these first, one at a time: the
-- migration skips a key that exists, and validating a valid one is instant.
--   ALTER TABLE "numbers" ADD CONSTRAINT "numbers_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID; ALTER TABLE "numbers" VALIDATE CONSTRAINT "numbers_patient_fk";
--   ALTER TABLE "patient_tags" ADD CONSTRAINT "patient_tags_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID; ALTER TABLE "patient_tags" VALIDATE CONSTRAINT "patient_tags_patient_fk";
--   ALTER TABLE "patient_tags" ADD CONSTRAINT "patient_tags_tag_fk" FOREIGN KEY ("account_id","tag_id") REFERENCES "public"."tags"("account_id","id") NOT VALID; ALTER TABLE "patient_tags" VALIDATE CONSTRAINT "patient_tags_tag_fk";
--   ALTER TABLE "patient_logs" ADD CONSTRAINT "patient_logs_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID; ALTER TABLE "patient_logs" VALIDATE CONSTRAINT "patient_logs_patient_fk";
--   ALTER TABLE "clinical_notes" ADD CONSTRAINT "clinical_notes_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID; ALTER TABLE "clinical_notes" VALIDATE CONSTRAINT "clinical_notes_patient_fk";
--   ALTER TABLE "files" ADD CONSTRAINT "files_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID; ALTER TABLE "files" VALIDATE CONSTRAINT "files_patient_fk";
--   ALTER TABLE "care_plan_members" ADD CONSTRAINT "care_plan_members_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID; ALTER TABLE "care_plan_members" VALIDATE CONSTRAINT "care_plan_members_patient_fk";
--   ALTER TABLE "care_plan_members" ADD CONSTRAINT "care_plan_members_plan_fk" FOREIGN KEY ("account_id","care_plan_id") REFERENCES "public"."care_plans"("account_id","id") NOT VALID; ALTER TABLE "care_plan_members" VALIDATE CONSTRAINT "care_plan_members_plan_fk";
--   ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID; ALTER TABLE "appointments" VALIDATE CONSTRAINT "appointments_patient_fk";
--   ALTER TABLE "invoices" ADD CONSTRAINT "invoices_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID; ALTER TABLE "invoices" VALIDATE CONSTRAINT "invoices_patient_fk";
--   ALTER TABLE "line_items" ADD CONSTRAINT "line_items_invoice_fk" FOREIGN KEY ("account_id","invoice_id") REFERENCES "public"."invoices"("account_id","id") NOT VALID; ALTER TABLE "line_items" VALIDATE CONSTRAINT "line_items_invoice_fk";
--   ALTER TABLE "payments" ADD CONSTRAINT "payments_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID; ALTER TABLE "payments" VALIDATE CONSTRAINT "payments_patient_fk";
--   ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_payment_fk" FOREIGN KEY ("account_id","payment_id") REFERENCES "public"."payments"("account_id","id") NOT VALID; ALTER TABLE "payment_allocations" VALIDATE CONSTRAINT "payment_allocations_payment_fk";
--   ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_invoice_fk" FOREIGN KEY ("account_id","invoice_id") REFERENCES "public"."invoices"("account_id","id") NOT VALID; ALTER TABLE "payment_allocations" VALIDATE CONSTRAINT "payment_allocations_invoice_fk";
--   ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_fk" FOREIGN KEY ("account_id","payment_id") REFERENCES "public"."payments"("account_id","id") NOT VALID; ALTER TABLE "refunds" VALIDATE CONSTRAINT "refunds_payment_fk";

CREATE UNIQUE INDEX IF NOT EXISTS "api_keys_account_id_key" ON "api_keys" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_pkey", ADD CONSTRAINT "api_keys_pkey" PRIMARY KEY USING INDEX "api_keys_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "roles_account_id_key" ON "roles" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "roles" DROP CONSTRAINT "roles_pkey", ADD CONSTRAINT "roles_pkey" PRIMARY KEY USING INDEX "roles_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "users_account_id_key" ON "users" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_pkey", ADD CONSTRAINT "users_pkey" PRIMARY KEY USING INDEX "users_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sessions_account_id_key" ON "sessions" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "sessions" DROP CONSTRAINT "sessions_pkey", ADD CONSTRAINT "sessions_pkey" PRIMARY KEY USING INDEX "sessions_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sign_in_attempts_account_id_key" ON "sign_in_attempts" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "sign_in_attempts" DROP CONSTRAINT "sign_in_attempts_pkey", ADD CONSTRAINT "sign_in_attempts_pkey" PRIMARY KEY USING INDEX "sign_in_attempts_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "request_log_account_id_key" ON "request_log" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "request_log" DROP CONSTRAINT "request_log_pkey", ADD CONSTRAINT "request_log_pkey" PRIMARY KEY USING INDEX "request_log_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "webhook_endpoints_account_id_key" ON "webhook_endpoints" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_pkey", ADD CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY USING INDEX "webhook_endpoints_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "webhook_messages_account_id_key" ON "webhook_messages" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "webhook_messages" DROP CONSTRAINT "webhook_messages_pkey", ADD CONSTRAINT "webhook_messages_pkey" PRIMARY KEY USING INDEX "webhook_messages_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "webhook_attempts_account_id_key" ON "webhook_attempts" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_pkey", ADD CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY USING INDEX "webhook_attempts_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "audit_log_account_id_key" ON "audit_log" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_pkey", ADD CONSTRAINT "audit_log_pkey" PRIMARY KEY USING INDEX "audit_log_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "deleted_entities_account_id_key" ON "deleted_entities" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "deleted_entities" DROP CONSTRAINT "deleted_entities_pkey", ADD CONSTRAINT "deleted_entities_pkey" PRIMARY KEY USING INDEX "deleted_entities_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "events_account_id_key" ON "events" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_pkey", ADD CONSTRAINT "events_pkey" PRIMARY KEY USING INDEX "events_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "locations_account_id_key" ON "locations" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "locations" DROP CONSTRAINT "locations_pkey", ADD CONSTRAINT "locations_pkey" PRIMARY KEY USING INDEX "locations_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "practitioners_account_id_key" ON "practitioners" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "practitioners" DROP CONSTRAINT "practitioners_pkey", ADD CONSTRAINT "practitioners_pkey" PRIMARY KEY USING INDEX "practitioners_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "appointment_types_account_id_key" ON "appointment_types" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "appointment_types" DROP CONSTRAINT "appointment_types_pkey", ADD CONSTRAINT "appointment_types_pkey" PRIMARY KEY USING INDEX "appointment_types_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "modalities_account_id_key" ON "modalities" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "modalities" DROP CONSTRAINT "modalities_pkey", ADD CONSTRAINT "modalities_pkey" PRIMARY KEY USING INDEX "modalities_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "resources_account_id_key" ON "resources" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "resources" DROP CONSTRAINT "resources_pkey", ADD CONSTRAINT "resources_pkey" PRIMARY KEY USING INDEX "resources_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "practitioner_availabilities_account_id_key" ON "practitioner_availabilities" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "practitioner_availabilities" DROP CONSTRAINT "practitioner_availabilities_pkey", ADD CONSTRAINT "practitioner_availabilities_pkey" PRIMARY KEY USING INDEX "practitioner_availabilities_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "tags_account_id_key" ON "tags" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "tags" DROP CONSTRAINT "tags_pkey", ADD CONSTRAINT "tags_pkey" PRIMARY KEY USING INDEX "tags_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "payment_methods_account_id_key" ON "payment_methods" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "payment_methods" DROP CONSTRAINT "payment_methods_pkey", ADD CONSTRAINT "payment_methods_pkey" PRIMARY KEY USING INDEX "payment_methods_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "billable_items_account_id_key" ON "billable_items" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "billable_items" DROP CONSTRAINT "billable_items_pkey", ADD CONSTRAINT "billable_items_pkey" PRIMARY KEY USING INDEX "billable_items_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "referral_sources_account_id_key" ON "referral_sources" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "referral_sources" DROP CONSTRAINT "referral_sources_pkey", ADD CONSTRAINT "referral_sources_pkey" PRIMARY KEY USING INDEX "referral_sources_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "addresses_account_id_key" ON "addresses" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "addresses" DROP CONSTRAINT "addresses_pkey", ADD CONSTRAINT "addresses_pkey" PRIMARY KEY USING INDEX "addresses_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "numbers_account_id_key" ON "numbers" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "numbers" DROP CONSTRAINT "numbers_pkey", ADD CONSTRAINT "numbers_pkey" PRIMARY KEY USING INDEX "numbers_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "patient_tags_account_id_key" ON "patient_tags" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "patient_tags" DROP CONSTRAINT "patient_tags_pkey", ADD CONSTRAINT "patient_tags_pkey" PRIMARY KEY USING INDEX "patient_tags_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "patients_account_id_key" ON "patients" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "patients" DROP CONSTRAINT "patients_pkey", ADD CONSTRAINT "patients_pkey" PRIMARY KEY USING INDEX "patients_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "patient_log_tags_account_id_key" ON "patient_log_tags" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "patient_log_tags" DROP CONSTRAINT "patient_log_tags_pkey", ADD CONSTRAINT "patient_log_tags_pkey" PRIMARY KEY USING INDEX "patient_log_tags_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "patient_logs_account_id_key" ON "patient_logs" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "patient_logs" DROP CONSTRAINT "patient_logs_pkey", ADD CONSTRAINT "patient_logs_pkey" PRIMARY KEY USING INDEX "patient_logs_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "clinical_notes_account_id_key" ON "clinical_notes" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "clinical_notes" DROP CONSTRAINT "clinical_notes_pkey", ADD CONSTRAINT "clinical_notes_pkey" PRIMARY KEY USING INDEX "clinical_notes_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "form_templates_account_id_key" ON "form_templates" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "form_templates" DROP CONSTRAINT "form_templates_pkey", ADD CONSTRAINT "form_templates_pkey" PRIMARY KEY USING INDEX "form_templates_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "files_account_id_key" ON "files" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "files" DROP CONSTRAINT "files_pkey", ADD CONSTRAINT "files_pkey" PRIMARY KEY USING INDEX "files_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "care_plan_members_account_id_key" ON "care_plan_members" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "care_plan_members" DROP CONSTRAINT "care_plan_members_pkey", ADD CONSTRAINT "care_plan_members_pkey" PRIMARY KEY USING INDEX "care_plan_members_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "care_plans_account_id_key" ON "care_plans" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "care_plans" DROP CONSTRAINT "care_plans_pkey", ADD CONSTRAINT "care_plans_pkey" PRIMARY KEY USING INDEX "care_plans_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "appointments_account_id_key" ON "appointments" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "appointments" DROP CONSTRAINT "appointments_pkey", ADD CONSTRAINT "appointments_pkey" PRIMARY KEY USING INDEX "appointments_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "invoices_account_id_key" ON "invoices" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_pkey", ADD CONSTRAINT "invoices_pkey" PRIMARY KEY USING INDEX "invoices_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "line_items_account_id_key" ON "line_items" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "line_items" DROP CONSTRAINT "line_items_pkey", ADD CONSTRAINT "line_items_pkey" PRIMARY KEY USING INDEX "line_items_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "payments_account_id_key" ON "payments" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_pkey", ADD CONSTRAINT "payments_pkey" PRIMARY KEY USING INDEX "payments_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "payment_allocations_account_id_key" ON "payment_allocations" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "payment_allocations" DROP CONSTRAINT "payment_allocations_pkey", ADD CONSTRAINT "payment_allocations_pkey" PRIMARY KEY USING INDEX "payment_allocations_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "refunds_account_id_key" ON "refunds" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_pkey", ADD CONSTRAINT "refunds_pkey" PRIMARY KEY USING INDEX "refunds_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "oauth_clients_account_id_key" ON "oauth_clients" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "oauth_clients" DROP CONSTRAINT "oauth_clients_pkey", ADD CONSTRAINT "oauth_clients_pkey" PRIMARY KEY USING INDEX "oauth_clients_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "oauth_grants_account_id_key" ON "oauth_grants" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "oauth_grants" DROP CONSTRAINT "oauth_grants_pkey", ADD CONSTRAINT "oauth_grants_pkey" PRIMARY KEY USING INDEX "oauth_grants_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "oauth_codes_account_id_key" ON "oauth_codes" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "oauth_codes" DROP CONSTRAINT "oauth_codes_pkey", ADD CONSTRAINT "oauth_codes_pkey" PRIMARY KEY USING INDEX "oauth_codes_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "oauth_tokens_account_id_key" ON "oauth_tokens" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "oauth_tokens" DROP CONSTRAINT "oauth_tokens_pkey", ADD CONSTRAINT "oauth_tokens_pkey" PRIMARY KEY USING INDEX "oauth_tokens_account_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "file_chunks_account_id_key" ON "file_chunks" USING btree ("account_id","id");--> statement-breakpoint
ALTER TABLE "file_chunks" DROP CONSTRAINT "file_chunks_pkey", ADD CONSTRAINT "file_chunks_pkey" PRIMARY KEY USING INDEX "file_chunks_account_id_key";--> statement-breakpoint
DROP INDEX "api_keys_account_idx";--> statement-breakpoint
DROP INDEX "deleted_entities_account_idx";--> statement-breakpoint
DROP INDEX "events_event_id_uq";--> statement-breakpoint
DROP INDEX "events_account_idx";--> statement-breakpoint
DROP INDEX "locations_account_idx";--> statement-breakpoint
DROP INDEX "practitioners_account_idx";--> statement-breakpoint
DROP INDEX "appointment_types_account_idx";--> statement-breakpoint
DROP INDEX "modalities_account_idx";--> statement-breakpoint
DROP INDEX "resources_account_idx";--> statement-breakpoint
DROP INDEX "practitioner_availabilities_account_idx";--> statement-breakpoint
DROP INDEX "tags_account_idx";--> statement-breakpoint
DROP INDEX "payment_methods_account_idx";--> statement-breakpoint
DROP INDEX "billable_items_account_idx";--> statement-breakpoint
DROP INDEX "referral_sources_account_idx";--> statement-breakpoint
DROP INDEX "addresses_account_idx";--> statement-breakpoint
DROP INDEX "numbers_account_idx";--> statement-breakpoint
DROP INDEX "patient_log_tags_account_idx";--> statement-breakpoint
DROP INDEX "patient_logs_account_idx";--> statement-breakpoint
DROP INDEX "clinical_notes_account_idx";--> statement-breakpoint
DROP INDEX "form_templates_account_idx";--> statement-breakpoint
DROP INDEX "files_account_idx";--> statement-breakpoint
DROP INDEX "care_plans_account_idx";--> statement-breakpoint
DROP INDEX "line_items_account_idx";--> statement-breakpoint
DROP INDEX "payment_allocations_account_idx";--> statement-breakpoint
DROP INDEX "refunds_account_idx";--> statement-breakpoint
DROP INDEX "file_chunks_key_seq_uq";--> statement-breakpoint
DROP INDEX "api_keys_hash_uq";--> statement-breakpoint
DROP INDEX "api_keys_previous_hash_idx";--> statement-breakpoint
DROP INDEX "sessions_token_hash_uq";--> statement-breakpoint
DROP INDEX "oauth_codes_hash_uq";--> statement-breakpoint
DROP INDEX "oauth_tokens_hash_uq";--> statement-breakpoint
DROP INDEX "oauth_tokens_grant_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "request_log_sweep_idx" ON "request_log" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "events_account_event_uq" ON "events" USING btree ("account_id","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "file_chunks_account_key_seq_uq" ON "file_chunks" USING btree ("account_id","file_key","seq");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "api_keys_hash_uq" ON "api_keys" USING btree ("account_id","hash");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "api_keys_previous_hash_idx" ON "api_keys" USING btree ("account_id","previous_hash");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sessions_token_hash_uq" ON "sessions" USING btree ("account_id","token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "oauth_codes_hash_uq" ON "oauth_codes" USING btree ("account_id","code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "oauth_tokens_hash_uq" ON "oauth_tokens" USING btree ("account_id","token_hash");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "oauth_tokens_grant_idx" ON "oauth_tokens" USING btree ("account_id","grant_id");--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'numbers_patient_fk') THEN
    ALTER TABLE "numbers" ADD CONSTRAINT "numbers_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "numbers" VALIDATE CONSTRAINT "numbers_patient_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'patient_tags_patient_fk') THEN
    ALTER TABLE "patient_tags" ADD CONSTRAINT "patient_tags_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "patient_tags" VALIDATE CONSTRAINT "patient_tags_patient_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'patient_tags_tag_fk') THEN
    ALTER TABLE "patient_tags" ADD CONSTRAINT "patient_tags_tag_fk" FOREIGN KEY ("account_id","tag_id") REFERENCES "public"."tags"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "patient_tags" VALIDATE CONSTRAINT "patient_tags_tag_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'patient_logs_patient_fk') THEN
    ALTER TABLE "patient_logs" ADD CONSTRAINT "patient_logs_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "patient_logs" VALIDATE CONSTRAINT "patient_logs_patient_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'clinical_notes_patient_fk') THEN
    ALTER TABLE "clinical_notes" ADD CONSTRAINT "clinical_notes_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "clinical_notes" VALIDATE CONSTRAINT "clinical_notes_patient_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'files_patient_fk') THEN
    ALTER TABLE "files" ADD CONSTRAINT "files_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "files" VALIDATE CONSTRAINT "files_patient_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'care_plan_members_patient_fk') THEN
    ALTER TABLE "care_plan_members" ADD CONSTRAINT "care_plan_members_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "care_plan_members" VALIDATE CONSTRAINT "care_plan_members_patient_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'care_plan_members_plan_fk') THEN
    ALTER TABLE "care_plan_members" ADD CONSTRAINT "care_plan_members_plan_fk" FOREIGN KEY ("account_id","care_plan_id") REFERENCES "public"."care_plans"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "care_plan_members" VALIDATE CONSTRAINT "care_plan_members_plan_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'appointments_patient_fk') THEN
    ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "appointments" VALIDATE CONSTRAINT "appointments_patient_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'invoices_patient_fk') THEN
    ALTER TABLE "invoices" ADD CONSTRAINT "invoices_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "invoices" VALIDATE CONSTRAINT "invoices_patient_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'line_items_invoice_fk') THEN
    ALTER TABLE "line_items" ADD CONSTRAINT "line_items_invoice_fk" FOREIGN KEY ("account_id","invoice_id") REFERENCES "public"."invoices"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "line_items" VALIDATE CONSTRAINT "line_items_invoice_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'payments_patient_fk') THEN
    ALTER TABLE "payments" ADD CONSTRAINT "payments_patient_fk" FOREIGN KEY ("account_id","patient_id") REFERENCES "public"."patients"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "payments" VALIDATE CONSTRAINT "payments_patient_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'payment_allocations_payment_fk') THEN
    ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_payment_fk" FOREIGN KEY ("account_id","payment_id") REFERENCES "public"."payments"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "payment_allocations" VALIDATE CONSTRAINT "payment_allocations_payment_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'payment_allocations_invoice_fk') THEN
    ALTER TABLE "payment_allocations" ADD CONSTRAINT "payment_allocations_invoice_fk" FOREIGN KEY ("account_id","invoice_id") REFERENCES "public"."invoices"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "payment_allocations" VALIDATE CONSTRAINT "payment_allocations_invoice_fk";--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'refunds_payment_fk') THEN
    ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_fk" FOREIGN KEY ("account_id","payment_id") REFERENCES "public"."payments"("account_id","id") NOT VALID;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "refunds" VALIDATE CONSTRAINT "refunds_payment_fk";
