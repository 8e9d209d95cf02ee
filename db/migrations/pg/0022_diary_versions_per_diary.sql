CREATE TABLE "diary_versions" (
	"account_id" integer NOT NULL,
	"diary" text NOT NULL,
	"version" integer NOT NULL,
	CONSTRAINT "diary_versions_pk" PRIMARY KEY("account_id","diary")
);
