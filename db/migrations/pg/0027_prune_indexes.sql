DROP INDEX "resources_location_idx";--> statement-breakpoint
DROP INDEX "numbers_patient_idx";--> statement-breakpoint
DROP INDEX "patient_log_tags_log_idx";--> statement-breakpoint
DROP INDEX "invoices_patient_balance_idx";--> statement-breakpoint
DROP INDEX "invoices_third_party_balance_idx";--> statement-breakpoint
DROP INDEX "invoices_subtotal_idx";--> statement-breakpoint
DROP INDEX "invoices_paid_idx";--> statement-breakpoint
DROP INDEX "invoices_type_idx";--> statement-breakpoint
DROP INDEX "invoices_note_idx";--> statement-breakpoint
DROP INDEX "refunds_payment_idx";