CREATE TABLE "diary_versions" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"version" integer NOT NULL
);
