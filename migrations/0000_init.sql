CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`platform` text NOT NULL,
	`platform_user_id` text NOT NULL,
	`username` text NOT NULL,
	`display_name` text DEFAULT '' NOT NULL,
	`avatar` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`followers_count` integer DEFAULT 0 NOT NULL,
	`following_count` integer DEFAULT 0 NOT NULL,
	`server_url` text,
	`meta` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `accounts_user_idx` ON `accounts` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_user_platform_uid_unique` ON `accounts` (`user_id`,`platform`,`platform_user_id`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`preview` text NOT NULL,
	`status` text DEFAULT 'created' NOT NULL,
	`tier` text NOT NULL,
	`last_used` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `credit_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`trans_no` text NOT NULL,
	`trans_type` text NOT NULL,
	`credits` integer NOT NULL,
	`order_no` text,
	`source_type` text,
	`source_detail` text DEFAULT '' NOT NULL,
	`period` text,
	`expired_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `credit_ledger_user_created_idx` ON `credit_ledger` (`user_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `credit_ledger_trans_no_unique` ON `credit_ledger` (`trans_no`);--> statement-breakpoint
CREATE UNIQUE INDEX `credit_ledger_grant_period_unique` ON `credit_ledger` (`user_id`,`trans_type`,`period`);--> statement-breakpoint
CREATE TABLE `drafts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`scheduled_for` text,
	`social_set_id` text,
	`selected_account_ids` text DEFAULT '[]' NOT NULL,
	`template_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`social_set_id`) REFERENCES `social_sets`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `drafts_user_created_idx` ON `drafts` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `media` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`file_name` text NOT NULL,
	`type` text NOT NULL,
	`mime` text NOT NULL,
	`size` integer NOT NULL,
	`width` integer,
	`height` integer,
	`alt_text` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `media_user_idx` ON `media` (`user_id`);--> statement-breakpoint
CREATE TABLE `oauth_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL,
	`data` text DEFAULT '{}' NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `platform_contents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`draft_id` text NOT NULL,
	`platform` text NOT NULL,
	`content` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`draft_id`) REFERENCES `drafts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `platform_contents_draft_platform_unique` ON `platform_contents` (`draft_id`,`platform`);--> statement-breakpoint
CREATE TABLE `publication_parts` (
	`id` text PRIMARY KEY NOT NULL,
	`publication_id` text NOT NULL,
	`position` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`media` text DEFAULT '[]' NOT NULL,
	`network_id` text,
	`network_cid` text,
	`url` text,
	`idempotency_key` text NOT NULL,
	`error` text,
	`sent_at` text,
	FOREIGN KEY (`publication_id`) REFERENCES `publications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `publication_parts_pub_pos_unique` ON `publication_parts` (`publication_id`,`position`);--> statement-breakpoint
CREATE TABLE `publications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`draft_id` text,
	`account_id` text NOT NULL,
	`platform` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`url` text,
	`data` text,
	`job_id` text,
	`options` text DEFAULT '{}' NOT NULL,
	`origin` text DEFAULT 'now' NOT NULL,
	`scheduled_for` text,
	`published_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`draft_id`) REFERENCES `drafts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `publications_draft_idx` ON `publications` (`draft_id`);--> statement-breakpoint
CREATE INDEX `publications_job_idx` ON `publications` (`job_id`);--> statement-breakpoint
CREATE INDEX `publications_user_idx` ON `publications` (`user_id`);--> statement-breakpoint
CREATE TABLE `schedule_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`draft_id` text NOT NULL,
	`account_id` text NOT NULL,
	`platform` text NOT NULL,
	`fire_at` integer NOT NULL,
	`requested_at` integer NOT NULL,
	`priority` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`next_attempt_at` integer,
	`due_at` integer NOT NULL,
	`last_error` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`draft_id`) REFERENCES `drafts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `schedule_due_idx` ON `schedule_entries` (`status`,`due_at`);--> statement-breakpoint
CREATE INDEX `schedule_draft_idx` ON `schedule_entries` (`draft_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `schedule_one_pending_unique` ON `schedule_entries` (`draft_id`,`account_id`) WHERE status = 'pending';--> statement-breakpoint
CREATE TABLE `social_set_accounts` (
	`social_set_id` text NOT NULL,
	`account_id` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`social_set_id`, `account_id`),
	FOREIGN KEY (`social_set_id`) REFERENCES `social_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ssa_account_idx` ON `social_set_accounts` (`account_id`);--> statement-breakpoint
CREATE TABLE `social_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `social_sets_user_idx` ON `social_sets` (`user_id`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`head_plain` text DEFAULT '' NOT NULL,
	`tail_plain` text DEFAULT '' NOT NULL,
	`head_html` text DEFAULT '' NOT NULL,
	`tail_html` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `templates_user_idx` ON `templates` (`user_id`);--> statement-breakpoint
CREATE TABLE `tweets` (
	`id` text PRIMARY KEY NOT NULL,
	`draft_id` text NOT NULL,
	`position` integer NOT NULL,
	`content` text NOT NULL,
	`plain_text` text NOT NULL,
	`media` text DEFAULT '[]' NOT NULL,
	FOREIGN KEY (`draft_id`) REFERENCES `drafts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tweets_draft_pos_idx` ON `tweets` (`draft_id`,`position`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text,
	`nickname` text DEFAULT '' NOT NULL,
	`avatar_url` text DEFAULT '' NOT NULL,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`locale` text DEFAULT 'en' NOT NULL,
	`provider` text DEFAULT 'password' NOT NULL,
	`default_tier` text DEFAULT 'pro' NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);