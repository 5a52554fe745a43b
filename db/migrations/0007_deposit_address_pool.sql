CREATE TABLE "deposit_address_pool" (
	"key_id" text NOT NULL,
	"address_index" bigint NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_address_pool_key_id_address_index_pk" PRIMARY KEY("key_id","address_index")
);
