// Generated from backend/httpapi/openapi.json by `npm run api-types`; do not edit.

export interface paths {
    "/api/v1/admin/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every workspace, newest first (operators)
         * @description Operators only; API keys never.
         */
        get: operations["adminListWorkspaces"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/workspaces/{workspace}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Move a workspace to a plan (operators)
         * @description Operators only; API keys never.
         */
        patch: operations["adminUpdateWorkspace"];
        trace?: never;
    };
    "/api/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every user, newest first (operators)
         * @description Operators only; API keys never.
         */
        get: operations["adminListUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set a user's system role (operators)
         * @description Operators only. Granting `moderator` or `operator` needs a verified email address (403 `email_unverified`) and revokes every session (refresh token) of the account and every API key it created; any change revokes its sessions. Access tokens signed before the change carry no system rights.
         */
        patch: operations["adminUpdateUser"];
        trace?: never;
    };
    "/api/v1/admin/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The operators' dashboard: every workspace's last 14 days
         * @description Operators only; API keys never. The workspace dashboard over every workspace (top links of any workspace), plus the number of users and of workspaces (not deleted).
         */
        get: operations["adminStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every moderation decision, newest first (operators)
         * @description Operators only; API keys never. The worker's decisions (`actor` null) and the moderators'.
         */
        get: operations["adminAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API keys of a workspace
         * @description Needs the `manage` permission in the workspace.
         */
        get: operations["listAPIKeys"];
        put?: never;
        /**
         * Create an API key
         * @description Needs the `manage` permission in the workspace. API keys cannot create keys.
         */
        post: operations["createAPIKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Needs the `manage` permission in the workspace.
         */
        delete: operations["revokeAPIKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/domains/{id}/app-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A domain's app-link files
         * @description Needs the `links:read` permission. Both files, null when not set.
         */
        get: operations["getAppLinks"];
        /**
         * Set a domain's app-link files
         * @description Needs the `manage` permission (API keys never). The domain must be verified (409 `domain_unverified`). `apple_app_site_association` is served at `https://<domain>/.well-known/apple-app-site-association` and `assetlinks` at `/.well-known/assetlinks.json`, as `application/json`, on that host only, within a second on every node. Each at most 64 kB; a null file is not served. Both replace what was there.
         */
        put: operations["putAppLinks"];
        post?: never;
        /**
         * Clear a domain's app-link files
         * @description Needs the `manage` permission (API keys never). The well-known paths answer 404 again.
         */
        delete: operations["deleteAppLinks"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's audit log, newest first
         * @description Needs the `manage` permission (owners and admins; API keys cannot read it) and the plan's `audit_log` feature (403 `plan_required` without it). Who changed members, invitations, API keys, domains, the plan, the workspace's name and owner, deleted links, and moderators' bans and unbans of its links. Events are never changed or removed, except those older than `AUDIT_RETENTION_DAYS` (400 days by default). Each event names its actor and its target as they are called now (`actor.name`, `target_name`), looked up in this workspace alone; a target that is gone keeps the name its events recorded.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/audit.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's whole audit log, as CSV
         * @description Needs the `manage` permission and the plan's `audit_log` feature (403 `plan_required` without it). One row per event, newest first, streamed, with a header row: `at` (RFC 3339, UTC), `actor_type`, `actor_id` (empty for `system`), `actor_email`, `action`, `target`, `details` (JSON), `address_hash`. Cells are guarded against formulas like the other exports.
         */
        get: operations["exportAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an account and its first workspace
         * @description Creates the user, a workspace on the free plan named after the email, and the user's ownership of it, in one transaction. Counts against the client address's login budget. The refresh token is in the body (`refresh_token`) only when the request says `"token_pair": true`; browsers leave that out and keep it in the HttpOnly `sl_refresh` cookie. With `invitation` (the id and token of an invitation mail's link) and the invited address, the account is created verified (the link was mailed to it) and joins the inviting workspace with the invited role instead of getting a workspace of its own; `workspace` is then the workspace joined. A withdrawn or used invitation is 400 (reason `invitation_invalid`), an expired one 410 (`invitation_expired`), another address 400 (`invitation_email_mismatch`), a workspace whose plan has no room 403 `quota_exceeded` (`invitation_workspace_full`).
         */
        post: operations["signup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with email and password
         * @description Rate-limited: 10 attempts per 15 minutes per email and 50 per client address. The refresh token is in the body (`refresh_token`) only when the request says `"token_pair": true`; browsers leave that out and keep it in the HttpOnly `sl_refresh` cookie. For an account with two-factor sign-in on, a right password answers `{"mfa_required": true, "mfa_token"}`, sets no cookie and starts no session: POST /auth/login/2fa finishes the sign-in.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login/2fa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finish a sign-in with a TOTP code or a recovery code
         * @description The second step of a sign-in with 2FA on: the `mfa_token` of POST /auth/login and a current code of the authenticator app, or one of the recovery codes. Answers as a login does (cookies included). A code is accepted once: the same code again, or an older one, is 401 (reason `code_used`); a wrong one is 401 (reason `code_invalid`) and spends the same budgets as a wrong password (429 `rate_limited` when spent). Each recovery code works once. Ten wrong codes in a row for the account (TOTP or recovery, from any address) lock its second factor: every code is then refused unchecked, 429 `second_factor_locked` with `Retry-After`, for 15 minutes, then longer after each further ten. The token works for 5 minutes and for one successful code (401 `mfa_token_invalid` after). A sign-in whose first step was a password is refused (403 `sso_required`) when the address's domain enforces single sign-on by then; one whose first step was a workspace's provider makes that sign-in's membership only now.
         */
        post: operations["loginSecondStep"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Trade a refresh token for a new access token
         * @description Takes `{"refresh_token"}` in the body (API clients) or the `sl_refresh` cookie with the `X-CSRF-Token` header (the web app). Refresh tokens rotate: each can be used once. A token presented again within `REFRESH_GRACE` (20 s by default) of its use, as when two tabs refresh at once, gets the same next refresh token again; presented later, it revokes the whole session.
         */
        post: operations["refreshSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the session
         * @description Takes the refresh token like /auth/refresh. Logging out twice, or without a token, is not an error.
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify an email address
         * @description Takes the token of the link mailed at sign-up (or by `POST /me/verification`); the link opens the web app at `/app/verify?token=…`, which posts it here. A token works once, within 24 hours. The link mailed to a new address by `POST /me/email` comes here too: it makes that address the account's, verified, unless the account is a member bound by a workspace that enforces single sign-on and the address is outside its domain (403 `sso_required`).
         */
        post: operations["verifyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a password-reset link
         * @description Answers 202 whether or not the email has an account, and as fast either way: the link, if any, is mailed in the background. It opens the web app at `/app/reset-password?token=…`, works once and within one hour. Rate-limited per email and per client address.
         */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with a reset link's token
         * @description Sets the password, marks the address verified (its owner read the mail) and ends every session of the account (refresh tokens); sign in again. Access tokens already issued keep working until they expire (ACCESS_TOKEN_TTL). Refused (403 `sso_required`) while the address's domain enforces single sign-on, also for a link mailed before.
         */
        post: operations["confirmPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's plan, subscription and invoices
         * @description Needs the `manage` permission in the workspace. Owners and admins. `status` is the subscription's: `none` (never subscribed), `active`, `past_due` (a payment failed: the plan is kept for `BILLING_GRACE`), `canceled` (the plan is kept until `current_period_end`). `plan` is the plan in force now. Invoices are the newest first, at most 24.
         */
        get: operations["getBilling"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Subscribe the workspace to a plan
         * @description Needs the `own` permission in the workspace. Owners only. Answers the address of a Stripe Checkout page for a subscription to the plan billed every `interval`; the subscription takes effect when Stripe reports it (the webhook).
         */
        post: operations["billingCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/billing/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open the billing portal
         * @description Needs the `own` permission in the workspace. Owners only. Answers the address of a Stripe customer-portal page (payment methods, invoices, plan changes, cancellation). No body.
         */
        post: operations["billingPortal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stripe's events
         * @description Called by Stripe, without a session: the `Stripe-Signature` header is checked against `STRIPE_WEBHOOK_SECRET` (5-minute tolerance) before anything else. Each event is applied once (a replay answers 200 and changes nothing) and an event older than the last one applied to its subscription changes nothing. Handled: `checkout.session.completed`, `customer.subscription.created`, `…updated`, `…deleted`, `invoice.paid`, `invoice.payment_failed`; other types answer 200 and change nothing.
         */
        post: operations["billingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Custom domains of a workspace
         * @description Needs the `links:read` permission (every role; API keys with the `links:read` scope). Removed domains are not listed.
         */
        get: operations["listDomains"];
        put?: never;
        /**
         * Add a custom domain
         * @description Needs the `manage` permission in the workspace (owners and admins; API keys never). Needs the plan feature `custom_domains`, within the plan's `custom_domains` limit (403 `plan_required` / `quota_exceeded`). The host name is validated (IDN to punycode; no IP address, port or path; not this service's own hosts; a public suffix plus one label at least) and the domain is pending until a TXT record `_shortlink-verify.<hostname>` holds `verification.value`: see `POST …/domains/{id}/verify`; pending domains are also checked in the background every `DOMAIN_CHECK_INTERVAL`. Point the name at the service (CNAME or A/AAAA records to its proxy) for its links to answer there.
         */
        post: operations["createDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/domains/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A custom domain
         * @description Needs the `links:read` permission (every role; API keys with the `links:read` scope).
         */
        get: operations["getDomain"];
        put?: never;
        post?: never;
        /**
         * Remove a custom domain
         * @description Needs the `manage` permission in the workspace (owners and admins; API keys never). Its links stay in the workspace (their answers say `domain_removed: true` and have an empty `short_url`) and stop answering on every node within a second; the host name is free for any workspace to add again, and the old links never answer on it again.
         */
        delete: operations["deleteDomain"];
        options?: never;
        head?: never;
        /**
         * Set a domain's root URL
         * @description Needs the `manage` permission in the workspace (owners and admins; API keys never). `root_url` is where the domain's root (`/`) sends visitors (302); `null` removes it, and the root then answers 404. It is validated as link targets are, and may not point at the domain itself.
         */
        patch: operations["updateDomain"];
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/domains/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a domain's TXT record now
         * @description Needs the `manage` permission in the workspace (owners and admins; API keys never). Looks up the TXT record `_shortlink-verify.<hostname>` (through `DNS_RESOLVER`, or the system's resolver) and answers the domain: `verified` is true once the record holds `verification.value`. A record that is missing or wrong is no error: the domain stays pending and `verification.problem` says what was found. No body.
         */
        post: operations["verifyDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/{id}/responses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Answers given to the link's form, newest first
         * @description Needs the `links:read` permission; API keys need the `links:read` or `links:write` scope. One entry per form a visitor posted with valid answers (the link's `form` rule): `answers` maps field names to what was answered — trimmed, phone numbers in E.164, optional fields left empty absent. Answers stay readable on every plan: a plan without `form` stops asking, not reading. Pages with `cursor` (from `next_cursor`). A link of another workspace is not found.
         */
        get: operations["listFormResponses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/{id}/responses.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every answer given to the link's form, as CSV
         * @description Needs the `links:read` permission (API keys: `links:read` or `links:write`) and, being a data export, the plan's `export` feature (403 `plan_required` without it). Streamed, oldest first, with a header row: `created_at` (RFC 3339, UTC), the form's field names in the form's order, then the names of fields that were answered but are no longer in the form. A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so that spreadsheets do not run it as a formula (so E.164 phone numbers read `'+86…`). A link of another workspace is not found.
         */
        get: operations["exportFormResponses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/{id}/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a link's destination now
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. Checks the link's destination at once (HEAD, then GET when HEAD answers a failing status or 405/501), whatever its schedule and status, records the result as a background check would (two failures in a row make the link `broken`, one success `ok`) and answers the link with its `health`. The request waits for the check: up to twice `HEALTH_TIMEOUT` (10 s by default), not `WRITE_TIMEOUT`. A workspace may ask for `HEALTH_CHECKS_NOW_PER_HOUR` checks an hour (60 by default); past it, 429 `rate_limited`. No body.
         */
        post: operations["checkLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List CSV imports, newest first
         * @description Needs the `links:read` permission; API keys need the `links:read` or `links:write` scope. Pages with `cursor` (from `next_cursor`).
         */
        get: operations["listImports"];
        put?: never;
        /**
         * Import links from a CSV file, as a job
         * @description Needs the `links:write` permission (API keys: the `links:write` scope) and the plan's `batch` feature (403 `plan_required` without it). The file is sent as the `multipart/form-data` field `file`, or as the body with `Content-Type: text/csv`; it is read as it arrives and stored before the answer, so the job runs on any node and survives restarts. Columns, named by a header row: `url` (required), `alias`, `domain`, `title`, `expires_at` (RFC 3339, or `2030-01-31` / `2030-01-31 12:00:00` read as UTC), `password`. Bitly's export and API names (`long_url`, `Long URL`, `title`; `link`, `tags` and the rest are ignored) and Shlink's (`longUrl`, `shortCode` as the alias, `domain`, `title`, `validUntil`) are recognised, as is our links export; a file whose first cell is an http(s) URL has no header and one URL per row in its first column. The delimiter is comma, semicolon or tab (the first line's), a UTF-8 byte-order mark is skipped, and rows with nothing in them are skipped. Each row is checked like a row of `links/batch` (plan features, the month's quota) and fails on its own. A file without rows or without a url column answers 400; a file larger than `IMPORT_MAX_BYTES` or with more than `IMPORT_MAX_ROWS` rows (100,000) answers 413.
         */
        post: operations["createImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/imports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An import's state and progress
         * @description Needs the `links:read` permission. `rows` is the file's data rows; `done` counts the rows with a result so far (read it for progress), `failed` those of them that failed, `created` the links made. `state` is `queued`, `running`, `done` (every row has its result) or `failed` (the job could not go on: `error` says why).
         */
        get: operations["getImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/imports/{id}/failures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An import's failed rows, in row order
         * @description Needs the `links:read` permission; API keys need the `links:read` or `links:write` scope. The rows that failed so far, while the import runs and after it: `row` (the data row's number, from 1), `line` (the line of the file it starts on), `url` (as given), `error_code`, `error` and `error_reason` (the reason as in an error answer's `reason`, which clients translate). Pages with `cursor` (from `next_cursor`, empty on the last page). Another workspace's import is 404.
         */
        get: operations["importFailures"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/imports/{id}/results.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One line per row of a finished import, as CSV
         * @description Needs the `links:read` permission. Streamed in row order with a header row: `row` (the data row's number, from 1), `line` (the line of the file it starts on), `url` (as given), `short_url` (the link made) or `error_code`, `error` and `error_reason` (why the row failed; the reason as in an error answer's `reason`). Answers 409 while the import is `queued` or `running`. A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so that spreadsheets do not run it as a formula.
         */
        get: operations["importResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Pending invitations of a workspace
         * @description Needs the `manage` permission in the workspace.
         */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite an email address
         * @description Needs the `manage` permission in the workspace. The address need not have an account: the answer is the same either way, and whoever signs up with it sees the invitation in /me/invitations. The mail's link carries a secret with which the invitee sees the invitation signed out (GET /invitations/{id}) and signs up straight into the workspace. Invitations waiting count against the plan's member limit as if accepted: when members and invitations waiting fill it, 403 `quota_exceeded` (reason `member_limit_reached`). Each workspace may send `INVITES_PER_HOUR` invitations an hour (20 by default, counted whatever their outcome); past that, 429.
         */
        post: operations["invite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Withdraw an invitation
         * @description Needs the `manage` permission in the workspace.
         */
        delete: operations["cancelInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/invitations/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail an invitation again
         * @description Needs the `manage` permission in the workspace. Mails the invitation again with a new link: the old link's secret stops working, and the invitation is valid for 7 days again (an expired one too). Counts against the workspace's `INVITES_PER_HOUR` as a new invitation does; past that, 429. Audited as `invitation.resent`.
         */
        post: operations["resendInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What an invitation link invites to
         * @description For whoever opens an invitation mail's link, signed in or not: with the link's secret (`token`), the workspace's name, the inviter's email, the role and the invited address, and nothing else. Any other ID or token (a withdrawn or used invitation, or one sent before links carried a secret) answers 404 alike. Signing up with `invitation` {id, token} then joins the workspace.
         */
        get: operations["previewInvitation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/bulk-jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bulk jobs over links, newest first
         * @description Needs the `links:read` permission; API keys need the `links:read` or `links:write` scope. Pages with `cursor` (from `next_cursor`).
         */
        get: operations["listBulkJobs"];
        put?: never;
        /**
         * Change or delete every link a filter matches, as a job
         * @description Needs the `links:write` permission (API keys: the `links:write` scope), as a bulk edit does. `filter` takes the links list's filters (`q`, `status`, `domain`, `tag` (every one), `health`, `archived`, with the list's meaning: archived links are left out unless `archived` is `true` or `all`); the job acts on the links it matched when it started among those made before the submission, never on links made afterwards. Either `set` (the change of a bulk edit) or `"delete": true`; neither or both is 400 `bulk_action_required`. A bad filter or change answers 400 with the field under `filter.` or `set.`. A workspace has at most 3 unfinished jobs (409 `bulk_jobs_too_many`). Costs 10 requests of the workspace's rate limit. Follow the job at `Location`; its end is recorded in the audit log as `links.bulk_job`.
         */
        post: operations["createBulkJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/bulk-jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A bulk job's state and progress
         * @description Needs the `links:read` permission. `total` is how many links the filter matched when the job started (0 while `queued`); `done` counts those handled so far (read it for progress), `failed` those of them left as they were, `changed` the others. `state` is `queued`, `running`, `done`, `failed` (`error` says why) or `canceled`. Another workspace's job answers 404.
         */
        get: operations["getBulkJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/bulk-jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a bulk job
         * @description Needs the `links:write` permission. A queued job ends `canceled` at once; a running one stops before its next batch (what earlier batches did stays done). A job that has ended answers 409 `bulk_job_finished`. No body.
         */
        post: operations["cancelBulkJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/{id}/duplicate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a new link with the settings of this one
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. No body. The new link gets a new generated code on the same domain and this link's destination, title, redirect status, query forwarding, status (active or disabled), expiry, tags, UTM and every rule (password included); its visits, form responses, moderation and archiving are not copied. It counts as a create against the month's quota (403 `quota_exceeded`), and its rules against the plan (403 `plan_required`). A link the moderation banned or holds is not duplicated (403 `link_banned`, `link_held`). A link of another workspace is not found.
         */
        post: operations["duplicateLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/{id}/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The link's shares, oldest first
         * @description Needs the `stats:read` permission (every role; API keys with the `stats:read` scope).
         */
        get: operations["listLinkShares"];
        put?: never;
        /**
         * Share the link's statistics on a public page
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. No body. Makes a new address of a read-only page of the link's statistics, `url` (`PUBLIC_URL/share/{id}`), which anyone holding it may open without an account until the share is revoked or the link deleted; the page reads `GET /api/v1/share/{id}/stats`. `id` is 128 random bits. Needs the plan's `dashboard` feature (403 `plan_required`); a link the moderation banned or holds is not shared (403 `link_banned`); a link has at most 20 shares (409 `shares_too_many`). Recorded in the audit log as `link.shared`.
         */
        post: operations["shareLinkStats"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/{id}/share/{share_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a share
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. The page and its JSON route answer 404 from then on. Recorded in the audit log as `link.share_revoked`.
         */
        delete: operations["revokeLinkShare"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/share/{id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A shared link's statistics, without an account
         * @description The public read of a share, counted against the client address's budget as every public route. The same range and filter parameters and answer as `GET …/links/{id}/stats`, with the link's short URL and its destination's host, and nothing else of the link or its workspace (no link ID; the variant breakdown is empty, its keys being destination URLs). A share revoked, a link deleted, banned or held, a workspace whose plan lost the `dashboard` feature, and an ID that is no share's all answer the same 404 `share_not_found`. Never cached.
         */
        get: operations["getSharedStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List links, newest first or in another order, with their visits
         * @description Needs the `links:read` permission; API keys need the `links:read` or `links:write` scope. Pages with `cursor` (from `next_cursor`, with the same `sort` and filters); `q` searches URL, code/alias and title. Every link carries `visits`, its people's visits since it was made, and with `with=sparkline` also `visits_7d`, its visits on each of the last 7 days in `tz`; one request answers a whole page. Visits are counted a few seconds after the redirect, so in an order by visits a link that gains visits between two pages may move.
         */
        get: operations["listLinks"];
        put?: never;
        /**
         * Create a link
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. The answer comes after the link's row has committed. With `dedupe`, an existing link of the workspace to the same URL is returned (200) instead of a new one (201).
         */
        post: operations["createLink"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the status, expiry or tags of up to 1,000 links
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. `results[i]` answers `ids[i]` with either `link` (as changed) or `error`; every link changes or not on its own. An ID the workspace has no link of (whoever's it is) answers `not_found` (reason `link_not_found`). A link banned by the moderation keeps its status: an edit that sets `status` answers it 403 `forbidden` (reason `link_banned`) and changes nothing of it. A link that would carry more than 20 tags answers 400 (reason `tags_too_many`). More than 1,000 IDs, or none, is 400 (reason `batch_size`). Costs one request of the workspace's rate limit per ID (at most the whole budget): an edit the budget cannot pay is 429 `rate_limited` with `Retry-After`, and changes nothing.
         */
        patch: operations["bulkEditLinks"];
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create up to 1,000 links
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. Each row is created or fails on its own: `results[i]` answers `links[i]` with either `link` (and `created`) or `error`. Costs one request of the workspace's rate limit per row (at most the whole budget): a batch the budget cannot pay is 429 `rate_limited` with `Retry-After`, and creates nothing.
         */
        post: operations["createLinks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find a link by its short URL or code
         * @description Needs the `links:read` permission; API keys need the `links:read` or `links:write` scope. Give `short_url` (the full short URL) or `code`. Links of other workspaces answer 404.
         */
        get: operations["lookupLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a link
         * @description Needs the `links:read` permission; API keys need the `links:read` or `links:write` scope.
         */
        get: operations["getLink"];
        put?: never;
        post?: never;
        /**
         * Delete a link
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. Its short URL answers 404 on every node within a second.
         */
        delete: operations["deleteLink"];
        options?: never;
        head?: never;
        /**
         * Change a link
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. Only the fields sent change; `expires_at: null` removes the expiry. Every node redirects with the change within a second. A banned link stays banned.
         */
        patch: operations["updateLink"];
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/{id}/appeal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Appeal a ban or flag
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. Only a link that is `flagged` or `banned` (its `moderation.state`) can be appealed, and only once: moderators see the appeal with the link, and their next decision resolves it. The link answer of GET …/links/{id} shows it under `appeal`.
         */
        post: operations["appealLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/logo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's logo
         * @description Needs the `links:read` permission. 204 when there is none. The logo is answered as stored: an 8-bit PNG of at most 450 pixels a side (a logo stored before uploads were normalised is normalised on its first read, which takes an image slot: 503 `qr_busy` when none frees up).
         */
        get: operations["getLogo"];
        /**
         * Set the workspace's logo
         * @description Needs the `manage` permission (API keys never). The body is the image itself: a PNG of at most 100 kB and 2048 pixels a side (400 `logo_dimensions` past it, read from the header before anything is decoded). SVG is not taken (it could carry scripts into SVG codes). It is stored normalised: 8 bits a channel, scaled down to at most 450 pixels a side (the largest a code draws it), aspect ratio kept. Decoding it takes one of the server's image slots (503 `qr_busy` when none frees up within `QR_RENDER_WAIT`). QR codes draw it with `logo=1`.
         */
        put: operations["putLogo"];
        post?: never;
        /**
         * Remove the workspace's logo
         * @description Needs the `manage` permission (API keys never).
         */
        delete: operations["deleteLogo"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who is signed in, and their workspaces
         * @description For signed-in users. API keys are refused (403).
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        /**
         * Delete the account
         * @description Checks the current password (under the login limits) and deletes the account at once. Workspaces the person alone belongs to are deleted with it (their links stop answering at once and are removed in the background); their memberships of shared workspaces end, the API keys they made are revoked, and the links they made in shared workspaces stay there. Refused (409) while the person is the only owner of a workspace with other members: they make another member owner, or delete that workspace, first. The session cookies are cleared. API keys are refused (403).
         */
        delete: operations["deleteAccount"];
        options?: never;
        head?: never;
        /**
         * Change the signed-in person's settings
         * @description Today the language of their mails (`language`: `en` or `zh`), which the web app sets when they pick one. API keys are refused (403).
         */
        patch: operations["updateMe"];
        trace?: never;
    };
    "/api/v1/me/verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a new verification link
         * @description For signed-in users whose address is not verified yet; API keys are refused (403). Rate-limited per account. The mail is sent in the background.
         */
        post: operations["resendVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Invitations the signed-in user has received
         * @description Invitations addressed to the caller's email (compared without regard to case), sent before or after they signed up. API keys are refused (403).
         */
        get: operations["listMyInvitations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/invitations/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation
         * @description API keys are refused (403). Only users with a verified email address may accept (403 `email_unverified` otherwise). An invitation is valid for 7 days after it was sent or last resent; past that it is refused with 410 `invitation_expired`.
         */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Decline an invitation
         * @description API keys are refused (403).
         */
        delete: operations["declineInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the password
         * @description Checks the current password (under the same limits as a login: 429 when spent) and sets the new one. Every other session of the person is signed out; the caller's stays. A notice is mailed to the address. API keys are refused (403). An account whose address is in a domain that enforces single sign-on has no password of its own: 403 `sso_required`, before the current password is checked (operators and moderators are never refused).
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/2fa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start two-factor sign-in (TOTP)
         * @description Makes a new TOTP secret (RFC 6238: 30 s, 6 digits, SHA-1), kept unconfirmed until POST /me/2fa/confirm; starting again replaces an unconfirmed one. Show `otpauth_url` as a QR code. 409 (reason `two_factor_enabled`) when 2FA is on. API keys are refused (403).
         */
        post: operations["enrolTwoFactor"];
        /**
         * Turn two-factor sign-in off
         * @description Takes a current code (or `recovery_code`), under the same limits as a password (429 `rate_limited` when spent) and the same count of wrong codes as sign-in: during a lockout of the account's second factor every code is refused unchecked, 429 `second_factor_locked` with `Retry-After`. 409 (reason `two_factor_off`) when 2FA is off. API keys are refused (403).
         */
        delete: operations["disableTwoFactor"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/2fa/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm the enrolment and get the recovery codes
         * @description Takes a current code of the pending secret, under the same limits as a password (429 when spent), turns 2FA on and answers ten recovery codes, shown only now (kept hashed). 409 (reason `two_factor_not_pending`) when no enrolment is pending. API keys are refused (403).
         */
        post: operations["confirmTwoFactor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the email address
         * @description Checks the current password (under the login limits) and mails a confirmation link to the new address (its `/app/verify` page posts the token to `/api/v1/auth/verify-email`). The address changes only when that link is used, within 24 hours; the former address is then told by mail. Until then `GET /api/v1/me` answers it as `pending_email`. Mails count against the account's budget of verification mails (429). API keys are refused (403). A member bound by a workspace that enforces single sign-on (the address in its domain) cannot move the address out of the domain: 403 `sso_required`, before the current password is checked; moving within the domain is allowed.
         */
        post: operations["changeEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The person's signed-in sessions
         * @description Each session is one sign-in (a refresh-token family) that has not ended: when it began, when it was last renewed, the browser and system its device reported and its network (an IPv4 /24 or IPv6 /48, never the address). The caller's own is marked `current`. API keys are refused (403).
         */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        /**
         * Sign out every other session
         * @description Signs out every session of the person but the caller's (all of them when the caller's token names none). Their access tokens stop working at once on this server and within a second on the others (5 seconds should the bus lose the message). API keys are refused (403).
         */
        delete: operations["endOtherSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Sign out one session
         * @description Signs out one of the person's sessions (the caller's own included). Another person's session, an ended one or an unknown ID answer 404. API keys are refused (403).
         */
        delete: operations["endSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Members of a workspace
         * @description Needs the `read` permission in the workspace. API keys are refused (403): no scope names members.
         */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/members/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member, or leave
         * @description Any member may remove themself (leave); owners and admins remove others. API keys are refused (403). The API keys the removed member made in the workspace are revoked (`revoked_reason` `creator_removed`).
         */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        /**
         * Change a member's role
         * @description Needs the `manage` permission in the workspace. Making a member or viewer of someone revokes the API keys they made in the workspace (`revoked_reason` `creator_demoted`).
         */
        patch: operations["updateMember"];
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getOpenAPI"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/moderation/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Links in a moderation state (moderators)
         * @description Moderators and operators only (system role `moderator` or `operator`), signed in; API keys never (403). For `flagged`, `banned` and `passed`: the links whose state changed last first, each with its latest review. For `pending`: links due for a review that have never had one (new links appear once the worker has noted them), the latest due first, with `review` null. For `appealed`: the links with an open appeal (each with its `appeal`), the latest appealed first. Each item names the link's workspace, its owner's address and its visits.
         */
        get: operations["moderationQueue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/moderation/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many links each tab of the desk holds (moderators)
         * @description Moderators and operators only (system role `moderator` or `operator`), signed in; API keys never (403). The links of each queue state and those with an open appeal, each counted up to `cap` (1000) in one cheap statement.
         */
        get: operations["moderationCounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/moderation/links/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A link's moderation file (moderators)
         * @description Moderators and operators only (system role `moderator` or `operator`), signed in; API keys never (403). The link (any workspace), its latest 20 reviews with what each visitor profile saw, its decisions and its appeal.
         */
        get: operations["moderationLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/moderation/links/{id}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve, ban, unban or keep the ban of a link (moderators)
         * @description Moderators and operators only (system role `moderator` or `operator`), signed in; API keys never (403). `approve`: the link passes (and works again if it was banned); `ban`: it is banned, and every node answers its short URL with the warning page within a second (a review still due is dropped); `unban`: the ban is lifted and the link passes; `keep_ban`: a banned link stays banned (409 `link_not_banned` otherwise), which answers its appeal. The decision goes to the audit log with the moderator and closes the link's open appeal: upheld by `approve` and `unban`, rejected by `ban` and `keep_ban`, with `owner_message` (else `reason_text`) as its answer to the owner. A ban needs a standard `reason`; the reason and `reason_text` are what the owner sees, and the `note` stays private to moderators and operators.
         */
        post: operations["moderationDecide"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/moderation/links/{id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Have a link reviewed again (moderators)
         * @description Moderators and operators only (system role `moderator` or `operator`), signed in; API keys never (403). The link is due for a review now (reason `requested`); a worker takes it as soon as one is free. No body.
         */
        post: operations["moderationRequestReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/moderation/reviews/{id}/screenshots/{profile}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A review's screenshot (moderators)
         * @description Moderators and operators only (system role `moderator` or `operator`), signed in; API keys never (403). The PNG a visitor profile saw in a review: a capture's `screenshot_url`. Cached privately: a review's screenshot never changes.
         */
        get: operations["moderationScreenshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/moderation/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the banned, held or cleared domains (moderators)
         * @description Moderators and operators only (system role `moderator` or `operator`), signed in; API keys never (403). The domains whose new links are stopped, the latest first: `banned` by a moderator (with who, when and the private note) and `held` by their record of phishing bans (with the review whose ban holds them and `held_until`); `state=cleared` lists the domains a moderator cleared. Each with `links`, the links with a review of a page on it. Pages with `cursor` (from `next_cursor`, empty on the last page).
         */
        get: operations["moderationDomains"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/moderation/domains/{domain}/ban": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ban a whole domain (moderators)
         * @description Moderators and operators only (system role `moderator` or `operator`), signed in; API keys never (403). Every new link to the domain (or a link given a destination on it) is banned at once by the worker, without a review; links made before keep their state. Visit milestones are still reviewed. Each link banned under it is shown the ban's `category` (`phishing` when the body names none) with the reason code `domain_banned`. The decision is recorded in the moderators' audit log (action `ban_domain`, `link_id` 0, `domain` named, the category as its `reason`).
         */
        post: operations["moderationBanDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/moderation/domains/{domain}/clear": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Clear a whole domain (moderators)
         * @description Moderators and operators only (system role `moderator` or `operator`), signed in; API keys never (403). Lifts a domain ban, and stops the domain's record of phishing bans from banning its new links: each is reviewed. Links banned before stay banned until a moderator lifts their bans. The decision is recorded in the moderators' audit log (action `clear_domain`, `link_id` 0, `domain` named).
         */
        post: operations["moderationClearDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's plan, features, limits and usage
         * @description Needs the `read` permission in the workspace. Any member, and any API key of the workspace. `plan` is the plan in force: a trial past `trial_ends_at` answers as `free`. A limit of `null` is unlimited; `links_this_month` counts the links created in the current calendar month (UTC).
         */
        get: operations["getPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/trial": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start the 7-day trial
         * @description Needs the `manage` permission in the workspace. Owners and admins. A free workspace gets one trial; afterwards it answers as `free` again. No body. With billing on the trial is paid for, and paying is the owner's, as for a subscription: an admin gets 403 `role_forbidden`.
         */
        post: operations["startTrial"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every plan with its prices, features and limits
         * @description Public: no session or key needed (signed-in callers get the same answer). The plans cheapest first, from the same table the server enforces (limits as `PLAN_LIMITS` sets them). Prices are in the currency's smallest unit (fen: 100 = ¥1.00); a price of `null` has not been set (ask the service's operator). `checkout` is false while plans cannot be bought here: the operator sets a workspace's plan, and the trial starts without payment.
         */
        get: operations["listPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/{id}/qr": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The short URL as a QR code
         * @description Needs the `links:read` permission. The code holds the short URL, not the target: editing the link changes where a printed code leads. Every size, level and logo stays decodable. A code the server drew before (same link, short URL, format, size, colours, level and logo) is answered from its cache; one it draws costs the workspace's rate limit by its area (a PNG of 2048 pixels 16 requests, one of 512 or less 1; an SVG 1) and waits for one of the server's image slots (`QR_RENDERS`), 503 `qr_busy` past `QR_RENDER_WAIT`. A request naming none of `fg`, `bg`, `ec` and `logo` is drawn in the link's saved style (`qr` of the link, set by its create or PATCH), the default without one; naming any of them, the request's parameters alone decide. Such an answer is `Cache-Control: private, no-cache`: the saved style may change.
         */
        get: operations["getLinkQR"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/scim-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SCIM tokens of a workspace
         * @description Owners only. Never the tokens' secrets.
         */
        get: operations["listSCIMTokens"];
        put?: never;
        /**
         * Create a SCIM token
         * @description Owners only, on a plan with `sso` (403 `plan_required` otherwise). The identity provider sends the token as `Authorization: Bearer <token>` to the workspace's SCIM base URL (docs/scim.md).
         */
        post: operations["createSCIMToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/scim-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a SCIM token
         * @description Owners only. The token stops at once (404 `scim_token_not_found` when none).
         */
        delete: operations["deleteSCIMToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/scim-roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The mapping of the provider's groups to roles
         * @description Owners only. Empty: a group named `admin`, `member` or `viewer` gives its members that role.
         */
        get: operations["getSCIMRoles"];
        /**
         * Map the provider's groups to roles
         * @description Owners only, on a plan with `sso`. Replaces the mapping (an empty one goes back to the names `admin`, `member` and `viewer`) and gives every provisioned member the role it decides at once; owners keep theirs. A person in several groups gets the highest role; in none, `member`.
         */
        put: operations["putSCIMRoles"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/members/{user}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A member's signed-in sessions
         * @description Needs the `manage` permission in the workspace (owners and admins; only owners see an owner's) and a plan with `sso`. Each live session of the member (a sign-in, with every device it renewed from): when it began, when it was last let into a workspace (null: not yet), when it expires unless renewed, its device as the user agent summarised ("Firefox on Linux", "" when unknown) and the keyed hash of its address (never the address). A session is the person's, not the workspace's: it reaches every workspace they belong to. API keys are refused (403). See the project's docs/security.md, session policy.
         */
        get: operations["listMemberSessions"];
        put?: never;
        post?: never;
        /**
         * Sign out every session of a member
         * @description Needs the `manage` permission (only owners reach an owner's) and a plan with `sso`. Signs out every session of the member, everywhere, but the caller's own; their access tokens stop at once on this server and within a second on the others (5 seconds should the bus lose the message). Recorded as `session.revoked` with `all`. API keys are refused (403).
         */
        delete: operations["endMemberSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/members/{user}/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Sign out one session of a member
         * @description Needs the `manage` permission (only owners reach an owner's) and a plan with `sso`. Signs out one session of the member; one that is not theirs, ended or unknown answers 404 `session_not_found`. Recorded as `session.revoked`. API keys are refused (403).
         */
        delete: operations["endMemberSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/sessions/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out everyone
         * @description Needs the `own` permission (owners) and a plan with `sso`. Signs out every session of every member of the workspace, everywhere, but the caller's own session (the caller's other sessions end too). Recorded as `workspace.sessions_revoked`. API keys are refused (403).
         */
        post: operations["endWorkspaceSessions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/sso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A workspace's single sign-on
         * @description Owners only (API keys never). The provider, the email domain, whether its TXT record proved it, and the redirect URI to register with the provider (`callback_url`). The client secret is never shown: `client_secret_set` says one is stored. 404 `sso_not_set` when none is set up.
         */
        get: operations["getSSO"];
        /**
         * Set up single sign-on
         * @description Owners only (API keys never); needs the plan feature `sso` (403 `plan_required`). The issuer must be an https URL whose discovery document (`/.well-known/openid-configuration`) names the same issuer. The client secret is stored encrypted and never shown again; leave it out (or empty) to keep the stored one. The email domain is proven by a TXT record `_shortlink-sso.<email_domain>` holding `verification.value` (see `POST …/sso/verify`); a new domain needs a new proof. `enforce` (409 `sso_domain_unverified` before the proof) refuses password sign-in, sign-up and password resets for the domain's addresses (403 `sso_required`), and binds the workspace's members whose address is in the domain: they cannot set or change a password or move the address out of the domain (403 `sso_required`), and every session of theirs that began with a password ends, refresh tokens and access tokens alike (401), at every PUT that enforces; sessions begun through the provider stay. Operators and moderators are never bound. A domain proven by another workspace answers 409 `sso_domain_taken`. Recorded in the audit log (`sso.changed`, without the secret; with `enforce`, also `members_bound` and `password_sessions_ended`).
         */
        put: operations["putSSO"];
        post?: never;
        /**
         * Turn single sign-on off
         * @description Owners only (API keys never). The domain's people sign in with passwords again (those made by single sign-on have none: they ask for a password-reset link). Members stay members.
         */
        delete: operations["deleteSSO"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/sso/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check the email domain's TXT record now
         * @description Owners only (API keys never); needs the plan feature `sso`. Looks up the TXT record `_shortlink-sso.<email_domain>` (through `DNS_RESOLVER`, or the system's resolver), as custom domains are checked: `verified` is true once it holds `verification.value`; a missing record is no error (`verification.problem` says what was found). 409 `sso_domain_taken` when another workspace proved the domain first. No body.
         */
        post: operations["verifySSO"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign in with single sign-on
         * @description Opened by the browser: finds the workspace whose proven email domain is the address's, and redirects (302) to its provider in the protocol the workspace set. SAML: an AuthnRequest over HTTP-Redirect to the provider's SingleSignOnService, `RelayState` the state, bound to this browser by the `sl_saml` cookie (Path=/api/v1/auth/saml); the provider posts back to POST /auth/saml/{workspace}/acs. OpenID Connect: to its provider's authorization endpoint (authorization code flow with PKCE S256, `state` and `nonce`, `login_hint` the address). The state is kept server-side for 10 minutes, works once, and is bound to this browser by the `sl_sso` cookie (HttpOnly, SameSite=Lax, Path=/api/v1/auth/sso). Errors: 400 (no address), 404 `sso_not_configured` (no workspace proved the domain), 403 `plan_required` with reason `sso_plan_required` (the workspace that proved it is on a plan without `sso`: its people sign in with their passwords, whatever `enforce` says), 503 `sso_provider_unavailable` (the provider's discovery failed or named another issuer), 503 `sso_provider_not_public` (the provider's name resolves to an address that is not public; the answer names none). A request that accepts `text/html` (a browser) gets errors as a 302 to `/app/login?sso_error=<reason>` instead.
         */
        get: operations["startSSO"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sso/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider's redirect back
         * @description The redirect URI registered with providers. The `state` must be the one the `sl_sso` cookie of this browser holds, still live and unused (401 `sso_state_invalid`); the code is exchanged with the PKCE verifier and the ID token checked: signature, issuer (the settings'), audience, expiry and nonce (401 `sso_failed`); `email_verified` must be true (403 `sso_email_unverified`) and the address in the proven domain (403 `sso_email_domain`). Operators and moderators never sign in this way (403 `sso_staff_account`), and nobody signs in while the workspace's plan lacks `sso` (403 `plan_required`, reason `sso_plan_required`, a sign-in started before the downgrade included). The first sign-in makes the account (address verified, no password); an account whose address was never verified is taken over (its password, sessions and API keys end). The account becomes a member (role `member`) of the workspace if it is not one. Then the session cookies are set as a password sign-in sets them and the browser goes (302) to `return_to`; with 2FA on, to `/app/login#mfa_token=…` for the second step (POST /auth/login/2fa) instead. A browser gets errors as a 302 to `/app/login?sso_error=<reason>`.
         */
        get: operations["finishSSO"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/saml/{workspace}/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A workspace's SAML service provider metadata
         * @description The metadata to register with the workspace's SAML identity provider: entity ID (this URL), the assertion consumer service (HTTP-POST), NameID format emailAddress, assertions wanted signed, AuthnRequests not signed (no key). It holds nothing of the workspace but its number, so it is served whether or not the workspace set SAML up. Downloaded as `shortlink-saml-metadata.xml`.
         */
        get: operations["samlMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/saml/{workspace}/acs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A workspace's SAML assertion consumer service
         * @description The identity provider's HTTP-POST of `SAMLResponse` and `RelayState`, sent by the browser that started the sign-in (GET /auth/sso/start). `RelayState` must be the state the `sl_saml` cookie of this browser holds (HttpOnly, Path=/api/v1/auth/saml, SameSite=None and Secure when cookies are secure), still live, unused and of this workspace (401 `sso_state_invalid`). The response is checked against the provider's metadata: a valid signature of the response or of the assertion (unsigned ones are refused), issuer, destination and recipient (this URL), audience (the entity ID), InResponseTo (the request this sign-in sent; IdP-initiated sign-ins are refused), IssueInstant at most 90 s old and NotBefore / NotOnOrAfter with 180 s of clock skew, and the assertion ID unused (each is kept until it expires): any failure is 401 `sso_failed`. Then the address (an email attribute, else an emailAddress NameID) is signed in as GET /auth/sso/callback does: in the proven domain (403 `sso_email_domain`), no operator or moderator (403 `sso_staff_account`), the plan with `sso` (403 `plan_required`, reason `sso_plan_required`), the account made or found, the membership made (after the second step when 2FA is on), the session cookies set and a 302 to `return_to`. A browser gets errors as a 302 to `/app/login?sso_error=<reason>`.
         */
        post: operations["samlACS"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/{id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A link's visits over a range: totals, hourly and daily series, breakdowns
         * @description Needs the `stats:read` permission (every role; API keys with the `stats:read` scope), on every plan. Read from the hourly rollups, so the range is rounded outward to whole hours; `from`, `to` and `tz` echo the range answered. `visits` counts people, `bots` crawlers; `unique_visitors` counts a person once per UTC day, in the hour first seen that day, so over several days it is the sum of each day's (and a range starting within a day counts those first seen inside it). `series.hourly` holds every hour of the last 48 of the range, `series.daily` every day of the range in `tz` from its midnight (the first and last may be partial), both zero-filled; a day is made of the UTC hours that begin in it (exact for zones of whole-hour offsets). Breakdowns count people only, at most 100 keys each, most visits first then by key; a visit with no value (no country, no referrer, no variant, no UTM parameter) is in no key of that list. Variant keys are the URLs of the link's variants now (`#<index>` for a variant no longer there). A link of another workspace is not found. With filter parameters (`country`, `device`, `os`, `browser`, `referrer`, `in_app`, `utm_source`, `utm_medium`, `utm_campaign`, named as the breakdowns) the same answer counts only the visits that match them all, read from the single visits rather than the rollups, and echoes them in `filter`: unique visitors are then people counted once per UTC day in the hour of their first matching visit, exactly. Single visits are kept `VISIT_RETENTION_DAYS` days (400 by default), so a filtered range starting earlier answers 400 `invalid` (`filter_range_unavailable`, the message naming the earliest start).
         */
        get: operations["getLinkStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/links/export.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every link of the workspace with its totals, as CSV
         * @description Needs the `stats:read` permission and, being a data export, the plan's `export` feature (403 `plan_required` without it). Streamed by link ID with a header row: `id`, `code`, `short_url`, `url`, `title`, `status`, `created_at` (RFC 3339, UTC), then the link's visits since it was made: `visits` (people), `unique_visitors` (the sum of each UTC day's), `bots`, and `tags` (the names of its tags, separated by `;`, which an import reads back). A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so that spreadsheets do not run it as a formula. The list's filters (`q`, `status`, `domain`, `tag`, `health`, `archived`; as `GET …/links` reads them, the same 400s) narrow the file to the links the list shows with them; unlike the list, `archived` is `all` when absent, so the file holds every link without a filter.
         */
        get: operations["exportLinks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/visits/export.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's visits of a range, as CSV
         * @description Needs the `stats:read` permission and the plan's `export` feature (403 `plan_required` without it). One row per stored visit with a time in [`from`, `to`), oldest first, streamed, with a header row: `at` (RFC 3339 in `tz`), `link_id`, `code` (empty when the link was deleted), `variant` (the variant's URL, `#<index>` when the link no longer has it, empty when none), `country`, `device`, `os`, `browser`, `referrer` (host), `in_app`, `bot` (`true` for crawlers), `visitor` (hex of the hash of the visitor, salted per UTC day: the same within a day only), `event_id`, `utm_source`, `utm_medium`, `utm_campaign` (the short link's query parameters, empty when absent). Cells are guarded against formulas like the other exports. With `link`, the visits of that link only (a link of another workspace is not found), and then the filter parameters of its statistics (`country`, `device`, `os`, `browser`, `referrer`, `in_app`, `utm_source`, `utm_medium`, `utm_campaign`) narrow the rows to the visits that match them all, crawlers' included (the statistics count people only: the file's rows with `bot` false are the filtered statistics' `visits`). A filter is refused as the statistics refuse it: 400 `invalid` with `filter_invalid`, or `filter_range_unavailable` for a range starting before the single visits kept; without `link`, 400 `invalid` (`filter_unsupported`).
         */
        get: operations["exportVisits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's dashboard: the days of a range (the last 14) and its top links
         * @description Needs the `stats:read` permission and the plan's `dashboard` feature (403 `plan_required` without it). `days` are the 14 days ending today in `tz`, or the days that `from` and `to` touch, oldest first, zero-filled: links created that day, people's visits and crawlers' of every link of the workspace. `today` is the last of them. `top_links` are the 10 links with most people's visits over those days (links deleted since are left out), with their visits over those days. `from` and `to` echo the range answered. It has no breakdowns to filter by: a link's filter parameter (`country`, `device`, …) answers 400 `invalid` (`filter_unsupported`).
         */
        get: operations["getWorkspaceStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the workspace's tags
         * @description Needs the `links:read` permission; API keys need the `links:read` or `links:write` scope. Every tag of the workspace, ordered by name in lower case.
         */
        get: operations["listTags"];
        put?: never;
        /**
         * Create a tag
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. A name the workspace has a tag of already, in any case, is 409 `conflict` (reason `tag_exists`); a workspace has at most 1,000 tags (403 `quota_exceeded`, reason `tags_exceeded`). Links make the tags they name too (`tags` on create, edit, batch, import and bulk edit).
         */
        post: operations["createTag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/tags/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a tag
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. The tag is taken off every link carrying it; the links stay.
         */
        delete: operations["deleteTag"];
        options?: never;
        head?: never;
        /**
         * Rename or recolour a tag
         * @description Needs the `links:write` permission; API keys need the `links:write` scope. Every link carrying the tag shows its new name at once; a name another tag of the workspace has, in any case, is 409 `conflict` (reason `tag_exists`).
         */
        patch: operations["updateTag"];
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/utm-templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's UTM templates
         * @description Needs the `links:read` permission. By name.
         */
        get: operations["listUTMTemplates"];
        put?: never;
        /**
         * Save a UTM template
         * @description Needs the `links:write` permission. Names are unique in the workspace (409 `utm_template_name_taken`); a workspace keeps at most 100 templates (`utm_templates_exceeded`).
         */
        post: operations["createUTMTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/utm-templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a UTM template
         * @description Needs the `links:write` permission. Links made with it keep their parameters.
         */
        delete: operations["deleteUTMTemplate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Webhooks of a workspace
         * @description Needs the `manage` permission (owners and admins; API keys cannot: a webhook sends the workspace's events out and its secret signs them) and the plan's `webhooks` feature (403 `plan_required` without it).
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook
         * @description Needs the `manage` permission (owners and admins; API keys cannot: a webhook sends the workspace's events out and its secret signs them) and the plan's `webhooks` feature (403 `plan_required` without it). The URL must be https (http only where `WEBHOOK_ALLOW_LOOPBACK` is set, in tests) and its host must resolve only to public addresses (400 `webhook_url_refused`); a workspace has at most 25 webhooks (409 `webhook_limit`).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook
         * @description Needs the `manage` permission (owners and admins; API keys cannot: a webhook sends the workspace's events out and its secret signs them) and the plan's `webhooks` feature (403 `plan_required` without it).
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Needs the `manage` permission (owners and admins; API keys cannot: a webhook sends the workspace's events out and its secret signs them) and the plan's `webhooks` feature (403 `plan_required` without it). Its pending deliveries are dropped.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Edit a webhook
         * @description Needs the `manage` permission (owners and admins; API keys cannot: a webhook sends the workspace's events out and its secret signs them) and the plan's `webhooks` feature (403 `plan_required` without it). Enabling a disabled webhook clears its count of failures in a row.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Delivery log of a webhook
         * @description Needs the `manage` permission (owners and admins; API keys cannot: a webhook sends the workspace's events out and its secret signs them) and the plan's `webhooks` feature (403 `plan_required` without it). The latest 100 deliveries, newest first.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test delivery
         * @description Needs the `manage` permission (owners and admins; API keys cannot: a webhook sends the workspace's events out and its secret signs them) and the plan's `webhooks` feature (403 `plan_required` without it). Sends a `webhook.test` event now, once (no retries; it counts toward no disabling), through the same address guard, and answers how it went. The receiver has 10 s to answer, as for every delivery (`WRITE_TIMEOUT` does not cut it short), and the attempt is recorded in the delivery log even when the caller disconnects before the answer. Costs 10 requests of the workspace's rate limit: past it, 429 `rate_limited` with `Retry-After`, and nothing is sent.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/webhooks/{id}/deliveries/{delivery}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A delivery with its request and answer
         * @description Needs the `manage` permission (owners and admins; API keys cannot: a webhook sends the workspace's events out and its secret signs them) and the plan's `webhooks` feature (403 `plan_required` without it). The delivery as the log lists it, with what its last attempt sent (the headers, the signature reduced to its scheme, and the JSON body) and the first 4 KiB of the receiver's answer. The log's list leaves the bodies out: a batch of clicks carries up to 1,000 of them.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/webhooks/{id}/deliveries/{delivery}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Needs the `manage` permission (owners and admins; API keys cannot: a webhook sends the workspace's events out and its secret signs them) and the plan's `webhooks` feature (403 `plan_required` without it). Sends the delivery's message again now, once, as the test does: the same event, data and `webhook-id` (so a receiver that drops repeated ids drops it too), signed anew, through the same address guard, with 10 s for the receiver to answer; no retries, and it counts toward no disabling. The new delivery names the original in `resent_from`. Refused for a disabled webhook (409 `webhook_disabled`) and for a delivery still pending (409 `webhook_delivery_pending`). Costs 10 requests of the workspace's rate limit, as the test does: past it, 429 `rate_limited` with `Retry-After`, and nothing is sent. Recorded in the audit log as `webhook.delivery_resent`.
         */
        post: operations["resendWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's workspaces
         * @description For signed-in users. API keys are refused (403).
         */
        get: operations["listWorkspaces"];
        put?: never;
        /**
         * Create a workspace
         * @description API keys are refused (403).
         */
        post: operations["createWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A workspace
         * @description Needs the `read` permission in the workspace: any member. API keys are refused (403): no scope names the workspace itself.
         */
        get: operations["getWorkspace"];
        put?: never;
        post?: never;
        /**
         * Delete a workspace and everything in it
         * @description Needs the `own` permission in the workspace. Owners only. The workspace is gone for everyone at once: its members, invitations and API keys go with it, and its short links stop answering (404) at once while they are removed in the background; nothing can be restored.
         */
        delete: operations["deleteWorkspace"];
        options?: never;
        head?: never;
        /**
         * Rename a workspace, or require two-factor sign-in of its members
         * @description Needs the `manage` permission in the workspace. Owners and admins rename; only owners change `require_2fa` (403 `owner_required`). Turning `require_2fa` on needs a plan with `sso` (403 `plan_required`) and two-factor sign-in on the owner's own account (409 `own_2fa_required`); turning it off is allowed on any plan. While it is on and the plan has `sso`, members without two-factor sign-in get 403 `2fa_required` on every route of the workspace; API keys are not persons and keep working. A change is recorded in the audit log (`workspace.require_2fa_changed`). Owners set the session policy (`session_max_age`, `session_idle_timeout`: Go durations from 5m to 2160h, null or "" to clear; a limit needs a plan with `sso`), recorded as `workspace.session_policy_changed`. Plans are changed by operators and billing.
         */
        patch: operations["updateWorkspace"];
        trace?: never;
    };
    "/api/v1/workspaces/{workspace}/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hand the workspace to another member
         * @description Needs the `own` permission in the workspace: owners only. The member named becomes an owner and the caller an admin, in one step. A user who is not a member of this workspace is 404 (reason `not_a_member`); the caller themselves 400 (`transfer_to_self`).
         */
        post: operations["transferWorkspace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        PlanRequest: {
            /** @enum {string} */
            plan: "free" | "trial" | "personal" | "enterprise";
        };
        SystemRoleRequest: {
            /** @enum {string} */
            system_role: "user" | "moderator" | "operator";
        };
        AdminWorkspacePage: {
            workspaces: components["schemas"]["Workspace"][];
            /** @description Empty on the last page. */
            next_cursor: string;
        };
        AdminUserPage: {
            users: components["schemas"]["User"][];
            /** @description Empty on the last page. */
            next_cursor: string;
        };
        /** @description The last 14 days of every workspace. */
        AdminDashboard: {
            tz?: string;
            today: components["schemas"]["DashboardDay"];
            days: components["schemas"]["DashboardDay"][];
            top_links: components["schemas"]["TopLink"][];
            /** Format: int64 */
            users: number;
            /** Format: int64 */
            workspaces: number;
        };
        AuditPage: {
            items: components["schemas"]["Decision"][];
            /** @description Empty on the last page. */
            next_cursor: string;
        };
        /** @description A workspace API key. Its rights follow its creator: it works only while `created_by` is a member whose role may make keys (owner or admin). When the creator leaves or is removed, is demoted below admin, or their account is deleted, their keys are revoked at once on every node and say why in `revoked_reason`; making the creator admin again does not bring them back. */
        APIKey: {
            /** Format: int64 */
            id: number;
            /** Format: int64 */
            workspace_id: number;
            name: string;
            /** @description The key's first 10 characters, to tell keys apart. */
            prefix: string;
            scopes: ("links:read" | "links:write" | "stats:read")[];
            /**
             * Format: int64
             * @description The member who made the key; null once their account is deleted (the key is then revoked).
             */
            created_by: number | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Updated at most once a minute.
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at?: string | null;
            /**
             * @description Why a revoked key was revoked: `revoked` by an owner or admin; `creator_removed` when its creator left or was removed; `creator_demoted` when its creator became a member or viewer; `creator_deleted` when its creator's account was deleted; `creator_promoted` when its creator was given a system role; `creator_taken_over` when the proven owner of its creator's address, never verified, signed in through single sign-on; `creator_deprovisioned` when the workspace's identity provider deprovisioned its creator (SCIM).
             * @enum {string}
             */
            revoked_reason?: "revoked" | "creator_removed" | "creator_demoted" | "creator_deleted" | "creator_promoted" | "creator_taken_over" | "creator_deprovisioned";
        };
        NewAPIKey: {
            /** Format: int64 */
            id: number;
            /** @description The secret, shown once. Only its SHA-256 is stored. */
            key: string;
            name: string;
            prefix: string;
            scopes: ("links:read" | "links:write" | "stats:read")[];
            /**
             * Format: int64
             * @description The member who made the key: its rights follow theirs.
             */
            created_by?: number | null;
            /** Format: date-time */
            created_at: string;
        };
        APIKeyRequest: {
            name: string;
            /** @description links:read reaches the link reads, links:write the link writes (and reads), stats:read the statistics. A key reaches nothing else: not the workspace, its members, invitations or keys. */
            scopes: ("links:read" | "links:write" | "stats:read")[];
        };
        APIKeyList: {
            api_keys: components["schemas"]["APIKey"][];
        };
        /** @description Who did it. */
        AuditActor: {
            /** @enum {string} */
            type: "user" | "api_key" | "system";
            /**
             * Format: int64
             * @description The user's or API key's ID; 0 for `system`.
             */
            id: number;
            /** @description The user's email at the time (their address now, while a member, if none was recorded); absent for API keys and the system. */
            email?: string;
            /** @description A user's name from the workspace's identity provider (SCIM) while they are a member, or the API key's name; absent when nothing names the actor. */
            name?: string;
        };
        /** @description What the target is called now, looked up in the event's workspace alone. A target that is gone keeps the name its events recorded (`exists` false); an event older than those records and its target gone has an empty `label`. */
        AuditTargetName: {
            /** @description The kind of `target` (`link`, `user`, `member`, `invitation`, `workspace`, `domain`, `api_key`, `webhook`, `utm_template`, `scim_token`, …), or the whole target when it has no ID. */
            kind: string;
            /**
             * Format: int64
             * @description The ID in `target`; 0 when it has none.
             */
            id: number;
            /** @description A link's short URL, a member's or invitation's email, a workspace's, API key's, UTM template's or SCIM token's name, a domain's hostname, a webhook's host; empty when unknown. */
            label: string;
            /** @description More about it, when there is more — a link's destination host, a member's name. */
            detail?: string;
            /** @description The target is still in the workspace (a link page or a member to open). */
            exists: boolean;
        };
        AuditEvent: {
            /** Format: date-time */
            at: string;
            actor: components["schemas"]["AuditActor"];
            /** @description What was done, such as `member.role_changed`, `member.removed`, `member.left`, `invitation.sent`, `invitation.withdrawn`, `invitation.resent`, `invitation.accepted`, `api_key.created`, `api_key.revoked`, `domain.added`, `domain.verified`, `domain.removed`, `plan.changed`, `plan.trial_started`, `workspace.renamed`, `workspace.transferred`, `link.deleted`, `link.banned`, `link.unbanned`, `link.ban_kept`, `link.shared`, `link.share_revoked`, `billing.changed` (by `system`, from Stripe's events), `utm_template.created`, `utm_template.deleted`, `domain.app_links_set`, `domain.app_links_removed`, `workspace.logo_set`, `workspace.logo_removed`, `webhook.created`, `webhook.updated`, `webhook.deleted`, `webhook.tested`, `webhook.delivery_resent`, `links.bulk_job`; more may be added. */
            action: string;
            /** @description What it was done to, as `<kind>:<id>`, such as `user:42` or `link:7`. */
            target: string;
            target_name: components["schemas"]["AuditTargetName"];
            /** @description The facts of the change (a role, a host name, a plan). */
            details: {
                [key: string]: unknown;
            };
            /** @description The client's address as a keyed hash (HMAC): events with the same hash came from the same address; the address itself is not kept. Empty for the system's own changes. */
            address_hash: string;
        };
        WorkspaceAuditPage: {
            events: components["schemas"]["AuditEvent"][];
            /** @description Empty on the last page. */
            next_cursor: string;
        };
        User: {
            /** Format: int64 */
            id: number;
            /** Format: email */
            email: string;
            /** @enum {string} */
            system_role: "user" | "moderator" | "operator";
            /** @description Whether the user followed a link mailed to their address. Until then they use their own workspaces only: accepting invitations and system roles answer 403 `email_unverified`. */
            email_verified: boolean;
            /** Format: date-time */
            created_at: string;
            /**
             * @description The language the person reads Shortlink's mails in (verification, password reset, invitations, notices, digests); set at sign-up and with PATCH /api/v1/me.
             * @enum {string}
             */
            language: "en" | "zh";
        };
        Credentials: {
            /** Format: email */
            email: string;
            password: string;
            /**
             * @description Programs that keep their own tokens set it to get the refresh token in the answer's body as well (`refresh_token`). Left out or false, the refresh token is only in the HttpOnly `sl_refresh` cookie, where scripts cannot read it: browsers (the web app) leave it out.
             * @default false
             */
            token_pair?: boolean;
        };
        SignupRequest: {
            /** Format: email */
            email: string;
            password: string;
            /**
             * @description As in Credentials.
             * @default false
             */
            token_pair?: boolean;
            invitation?: components["schemas"]["InvitationLink"];
            /**
             * @description The language of the person's mails (reason `language_invalid` for any other); the request's Accept-Language picks it when absent, English when it names neither.
             * @enum {string}
             */
            language?: "en" | "zh";
        };
        SignupResponse: {
            user: components["schemas"]["User"];
            workspace: components["schemas"]["Workspace"];
            /** @description JWT (HS256) to send as `Authorization: Bearer <token>`. */
            access_token: string;
            /**
             * Format: date-time
             * @description When the access token expires.
             */
            expires_at: string;
            /** @description For POST /auth/refresh; usable once. Only when the request asked for it with `"token_pair": true`; otherwise the refresh token is only in the `sl_refresh` cookie. */
            refresh_token?: string;
        };
        LoginResponse: {
            user: components["schemas"]["User"];
            /** @description JWT (HS256) to send as `Authorization: Bearer <token>`. */
            access_token: string;
            /**
             * Format: date-time
             * @description When the access token expires.
             */
            expires_at: string;
            /** @description The refresh token, usable once: from /auth/login only when the request asked for it with `"token_pair": true`; from /auth/refresh when the token came in the body. Never in the answer to a cookie session, whose refresh token stays in the HttpOnly `sl_refresh` cookie, out of reach of scripts. */
            refresh_token?: string;
        };
        /** @description Leave out to use the `sl_refresh` cookie. */
        RefreshRequest: {
            refresh_token?: string;
        };
        TokenRequest: {
            /** @description The `token` parameter of the link in the mail. */
            token: string;
        };
        PasswordResetRequest: {
            email: string;
        };
        PasswordResetConfirm: {
            /** @description The `token` parameter of the link in the mail. */
            token: string;
            /** @description The new password, 8 to 256 characters. */
            password: string;
        };
        UserResponse: {
            user: components["schemas"]["User"];
        };
        /** @description The answer to a right password of an account with two-factor sign-in on: no session yet. Send the token with a code to POST /auth/login/2fa. */
        MFAChallenge: {
            /** @enum {boolean} */
            mfa_required: true;
            /** @description Good for 5 minutes and for one successful code. */
            mfa_token: string;
        };
        /** @description The token of the first step and either a current code or an unused recovery code. */
        LoginSecondStep: {
            mfa_token: string;
            /** @description The authenticator app's current six digits. */
            code?: string;
            /** @description One of the ten recovery codes; each works once. */
            recovery_code?: string;
            /**
             * @description As in Credentials.
             * @default false
             */
            token_pair?: boolean;
        };
        /** @description The plan to subscribe to and how often it is billed. */
        CheckoutRequest: {
            /** @enum {string} */
            plan: "personal" | "enterprise";
            /** @enum {string} */
            interval: "month" | "year";
        };
        /** @description A Stripe Checkout or customer-portal page. */
        PaymentPage: {
            /**
             * Format: uri
             * @description The Stripe page to send the person to.
             */
            url: string;
        };
        /** @description Stripe's event was received. */
        WebhookReceived: {
            received: boolean;
            /** @description false for an event type that is not handled. */
            applied?: boolean;
        };
        /** @description One of the workspace's invoices. */
        Invoice: {
            id: string;
            number: string;
            /**
             * Format: int64
             * @description The amount due, in the currency's smallest unit.
             */
            amount: number;
            /** @description ISO 4217, lower case (cny, usd). */
            currency: string;
            /** @description Stripe's invoice status (draft, open, paid, uncollectible, void). */
            status: string;
            /** Format: date-time */
            created: string;
            /** @description Stripe's page of the invoice ("" when it has none). */
            hosted_invoice_url: string;
        };
        /** @description A workspace's billing. */
        Billing: {
            /**
             * @description The plan in force now.
             * @enum {string}
             */
            plan: "free" | "trial" | "personal" | "enterprise";
            /** @enum {string} */
            status: "none" | "active" | "past_due" | "canceled";
            /** @enum {string|null} */
            interval: "month" | "year" | null;
            /** Format: date-time */
            current_period_end: string | null;
            cancel_at_period_end: boolean;
            /**
             * Format: date-time
             * @description When a payment first failed; set while the status is past_due.
             */
            past_due_since?: string | null;
            /**
             * Format: date-time
             * @description While past_due, when the plan falls back to free unless a payment succeeds (BILLING_GRACE after the first failure).
             */
            grace_ends_at?: string | null;
            invoices: components["schemas"]["Invoice"][];
        };
        /** @description A workspace's billing at a glance, in the operators' listing. */
        BillingSummary: {
            /** @enum {string} */
            status: "none" | "active" | "past_due" | "canceled";
            /**
             * @description The plan the subscription grants ("" for none).
             * @enum {string}
             */
            billed_plan: "" | "free" | "personal" | "enterprise";
            /**
             * Format: date-time
             * @description Until when billed_plan holds (null with no end); the workspace's own plan holds after it.
             */
            billed_until: string | null;
            /**
             * Format: date-time
             * @description When a payment first failed, while past_due.
             */
            past_due_since: string | null;
        };
        /** @description A custom domain of a workspace. Links on it (`"domain": "<hostname>"` on create) answer with that `Host`; their keys are unique per domain. */
        Domain: {
            /** Format: int64 */
            id: number;
            /** Format: int64 */
            workspace_id: number;
            /** @description In ASCII (IDN as punycode), lower case. */
            hostname: string;
            verified: boolean;
            /** Format: date-time */
            verified_at: string | null;
            /** @description Where the domain's root sends visitors; null answers 404. */
            root_url: string | null;
            verification: components["schemas"]["DomainVerification"];
            /** @description The records that send the domain's visitors to the service, to make beside the TXT record: one CNAME, or an A or AAAA record per address (the operator's DOMAIN_TARGET). */
            routing: components["schemas"]["DnsRecord"][];
            /** Format: date-time */
            created_at: string;
        };
        DnsRecord: {
            /** @enum {string} */
            type: "CNAME" | "A" | "AAAA";
            name: string;
            value: string;
        };
        /** @description The DNS record that proves the domain. */
        DomainVerification: {
            /** @enum {string} */
            type: "TXT";
            /** @description `_shortlink-verify.<hostname>` */
            name: string;
            /** @description The token the record must hold. */
            value: string;
            /**
             * Format: date-time
             * @description The last look at the record.
             */
            checked_at: string | null;
            /** @description Why the last look did not verify the domain; absent once verified. */
            problem?: string;
            /**
             * @description The problem named for clients that explain it in their own words: the lookup failed (try again later), or no TXT record holds the token yet. Absent with `problem`.
             * @enum {string}
             */
            problem_reason?: "dns_lookup_failed" | "txt_record_missing";
        };
        DomainList: {
            domains: components["schemas"]["Domain"][];
        };
        DomainRequest: {
            /** @description Such as `go.example.com` or `bücher.example.de`. */
            hostname: string;
        };
        DomainPatch: {
            root_url?: string | null;
        };
        AppLinks: {
            /** @description Apple's apple-app-site-association: an object holding `applinks`, `webcredentials`, `appclips` or `activitycontinuation` (each an object; `applinks.details`, when given, an array). At most 64 kB. */
            apple_app_site_association?: {
                [key: string]: unknown;
            } | null;
            /** @description Android's Digital Asset Links statements, each with `relation` and a `target` with `namespace`. At most 64 kB. */
            assetlinks?: ({
                relation: string[];
                target: {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            })[] | null;
        };
        /** @description Every error answer. */
        Error: {
            error: components["schemas"]["ErrorDetail"];
        };
        ErrorDetail: {
            /**
             * @description Decides the status. `method_not_allowed` is the 405 of a method a path does not take; `gone` (410) only the short domain answers, for an expired or used-up link.
             * @enum {string}
             */
            code: "invalid" | "unauthorized" | "forbidden" | "email_unverified" | "not_found" | "conflict" | "plan_required" | "quota_exceeded" | "trial_used" | "rate_limited" | "too_large" | "unavailable" | "internal" | "method_not_allowed" | "gone";
            /** @description For people; may change. */
            message: string;
            /** @description Finer than `code` and stable, for clients that explain errors in their own words (the web app translates it), such as `alias_taken`, `url_invalid`, `url_scheme`, `email_taken`, `password_length`, `hostname_invalid`, `domain_not_verified`, `json_invalid`, `value_invalid`; equal to `code` when nothing finer is known. The full list is in the project's docs/api.md. New reasons may appear: fall back to `message`. */
            reason: string;
            /** @description The input the error is about, such as `alias` or `url`; absent when none. */
            field?: string;
            /** @description On 5xx answers: quote it when reporting the problem. */
            request_id?: string;
        };
        FormResponse: {
            /** @description Field name → answer, for the fields that were answered. */
            answers: {
                [key: string]: string;
            };
            /** Format: date-time */
            created_at: string;
        };
        FormResponsePage: {
            responses: components["schemas"]["FormResponse"][];
            /** @description Pass as `cursor` for the next page; empty on the last page. */
            next_cursor: string;
        };
        /** @description What the checks of the link's destination found (HEAD, then GET, through the address guard; at most daily). Absent until a check made the link `ok` or `broken` (a new link, one whose destination just changed, or one that failed once and never succeeded). `status` and `error` are those of the last check: an `ok` link whose last check failed once shows that failure until the next check confirms it (`broken`) or clears it. */
        LinkHealth: {
            /**
             * @description `broken` after two failed checks in a row (DNS, TLS, timeout, refused connection, 404, 410, 5xx, too many redirects, or an address the guard refuses); `ok` after a successful one.
             * @enum {string}
             */
            state: "ok" | "broken";
            /**
             * Format: date-time
             * @description When the last check was made.
             */
            checked_at: string;
            /** @description HTTP status of the last check's answer; null when none came. */
            status: number | null;
            /**
             * @description Why the last check failed: `dns` (the name does not resolve), `tls` (certificate or handshake), `timeout`, `connect` (connection refused or cut), `status` (404, 410 or 5xx: see `status`), `redirects` (more than 5, or to something not http or https), `refused` (the destination or a redirect leads to a private, loopback, link-local or metadata address, which the checker never connects to); empty when it succeeded.
             * @enum {string}
             */
            error: "" | "dns" | "tls" | "timeout" | "connect" | "status" | "redirects" | "refused";
            /** @description The failure in a few English words; empty when the last check succeeded. */
            detail: string;
        };
        Import: {
            /** Format: int64 */
            id: number;
            /** @enum {string} */
            state: "queued" | "running" | "done" | "failed";
            /** @description The uploaded file's name, when the upload gave one. */
            filename: string;
            /**
             * @description What the header was read as: our columns, Bitly's, Shlink's, or none (one URL per row).
             * @enum {string}
             */
            format: "shortlink" | "bitly" | "shlink" | "plain";
            /** Format: int64 */
            bytes: number;
            /** @description Data rows in the file. */
            rows: number;
            /** @description Rows with a result so far, failed ones included. */
            done: number;
            /** @description Rows that failed. */
            failed: number;
            /** @description Links made. */
            created: number;
            /** @description Why a failed import failed. */
            error?: string;
            /** @description Path of the results file. */
            results_url: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            finished_at: string | null;
        };
        ImportPage: {
            /**
             * Format: int64
             * @description The largest file an upload may be, in bytes (`IMPORT_MAX_BYTES`).
             */
            max_bytes: number;
            /** @description The most data rows a file may have (`IMPORT_MAX_ROWS`). */
            max_rows: number;
            imports: components["schemas"]["Import"][];
            next_cursor: string;
        };
        ImportFailurePage: {
            items: components["schemas"]["ImportFailure"][];
            /** @description The cursor of the next page; empty on the last. */
            next_cursor: string;
        };
        ImportFailure: {
            /** @description The data row's number, from 1. */
            row: number;
            /** @description The line of the file the row starts on. */
            line: number;
            /** @description The row's URL as given. */
            url: string;
            error_code: string;
            /** @description The server's English words; clients show the reason in their own language. */
            error: string;
            /** @description The finer reason, as in an error answer's `reason`. */
            error_reason: string;
        };
        /** @description An invitation to an email address, whether or not it has an account yet; whoever signs in with that address sees it in /me/invitations and may accept it. */
        Invitation: {
            /** Format: int64 */
            id: number;
            /** Format: int64 */
            workspace_id: number;
            workspace_name: string;
            /**
             * Format: email
             * @description The invited address, normalised (trimmed, lower case). Nothing says whether it has an account.
             */
            email: string;
            /** @enum {string} */
            role: "admin" | "member" | "viewer";
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When it stops being valid, 7 days after it was sent or last resent (resending renews it).
             */
            expires_at: string;
            /** @description Past `expires_at`; accepting it answers 410 `invitation_expired`. */
            expired: boolean;
            /** @description The inviter's email; empty once their account is deleted. */
            invited_by: string;
        };
        InviteRequest: {
            /** Format: email */
            email: string;
            /**
             * @default member
             * @enum {string}
             */
            role?: "admin" | "member" | "viewer";
        };
        InvitationList: {
            invitations: components["schemas"]["Invitation"][];
        };
        /** @description What the holder of an invitation link is told before signing in or up. */
        InvitationPreview: {
            /** Format: int64 */
            id: number;
            workspace_name: string;
            /** @description The inviter's email; empty once their account is deleted. */
            invited_by: string;
            /** @enum {string} */
            role: "admin" | "member" | "viewer";
            /**
             * Format: email
             * @description The invited address, with which to sign up or in.
             */
            email: string;
            /** @description The invited address has an account already (the link's holder logs in rather than signs up). */
            has_account: boolean;
            /**
             * Format: date-time
             * @description When it stops being valid.
             */
            expires_at: string;
            /** @description Past `expires_at`; signing up with it answers 410 `invitation_expired`, and the holder asks `invited_by` to resend it. */
            expired: boolean;
        };
        /** @description An invitation mail's link, given at sign-up to join its workspace. */
        InvitationLink: {
            /** Format: int64 */
            id: number;
            token: string;
        };
        /** @description What changes on every link named; absent fields stay as they are. */
        BulkEditSet: {
            /** @enum {string} */
            status?: "active" | "disabled";
            /**
             * Format: date-time
             * @description Must be in the future; null removes the expiry.
             */
            expires_at?: string | null;
            /** @description `true` archives every link named, `false` brings them back to the list. */
            archived?: boolean;
            /** @description Tag names put on each link; names the workspace has no tag of make new tags. */
            tags_add?: string[];
            /** @description Tag names taken off each link; names the workspace has no tag of are ignored. */
            tags_remove?: string[];
        };
        /** @description The links list's filters, with the same meaning (`GET …/links`). */
        BulkJobFilter: {
            /** @description Text in the URL, code or title. */
            q?: string;
            /** @enum {string} */
            status?: "active" | "disabled" | "banned" | "held" | "expired";
            /** @description The links' domain, the service's own or a verified custom domain of the workspace. */
            domain?: string;
            /** @description Tag names; a link must carry every one. */
            tag?: string[];
            /** @enum {string} */
            health?: "ok" | "broken";
            /**
             * @description `false` (default) leaves archived links out, `true` takes only them, `all` both.
             * @enum {string}
             */
            archived?: "false" | "true" | "all";
        };
        BulkJobRequest: {
            filter?: components["schemas"]["BulkJobFilter"];
            set?: components["schemas"]["BulkEditSet"];
            /** @description `true` deletes the links instead of changing them. */
            delete?: boolean;
        };
        BulkJob: {
            /** Format: int64 */
            id: number;
            /** @enum {string} */
            state: "queued" | "running" | "done" | "failed" | "canceled";
            filter: components["schemas"]["BulkJobFilter"];
            delete: boolean;
            /** @description The change as submitted (null for a deletion). */
            set: {
                status?: string;
                /** Format: date-time */
                expires_at?: string | null;
                archived?: boolean;
                tags_add?: string[];
                tags_remove?: string[];
            } | null;
            /**
             * Format: int64
             * @description Links the filter matched when the job started; 0 while queued.
             */
            total: number;
            /**
             * Format: int64
             * @description Links handled so far, failed ones included.
             */
            done: number;
            /**
             * Format: int64
             * @description Links left as they were: deleted meanwhile, banned or held when the change sets a status, or past the tags a link may carry.
             */
            failed: number;
            /**
             * Format: int64
             * @description Links changed or deleted.
             */
            changed: number;
            /** @description Why a failed job failed. */
            error?: string;
            cancel_requested: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            finished_at: string | null;
        };
        BulkJobPage: {
            jobs: components["schemas"]["BulkJob"][];
            /** @description Cursor of the next page; empty on the last. */
            next_cursor: string;
        };
        /** @description A public address of a link's statistics. */
        Share: {
            /** @description 128 random bits, unpadded base64url (22 characters). */
            id: string;
            /** @description The public page, `PUBLIC_URL/share/{id}`. */
            url: string;
            /** Format: int64 */
            link_id: number;
            /**
             * Format: int64
             * @description The user who made it; absent when an API key did.
             */
            created_by?: number;
            /** Format: date-time */
            created_at: string;
        };
        ShareList: {
            shares: components["schemas"]["Share"][];
        };
        /** @description A shared link's statistics: those of `LinkStats` without `link_id`, with the short URL and the destination's host. */
        SharedStats: components["schemas"]["LinkStats"] & {
            short_url: string;
            destination_host: string;
        };
        Link: {
            /** Format: int64 */
            id: number;
            /** Format: int64 */
            workspace_id: number;
            /** @description Host of the short URL: the service's short domain, or the custom domain the link was made on. */
            domain: string;
            /** @description Generated code or custom alias. */
            code: string;
            is_alias: boolean;
            /** Format: uri */
            short_url: string;
            /**
             * Format: uri
             * @description Destination, normalised.
             */
            url: string;
            title: string;
            /** @enum {integer} */
            redirect_status: 301 | 302 | 307;
            /** @description Append the visitor's query string to the destination. */
            forward_query: boolean;
            /** @description Campaign parameters merged into the destination on redirect; null when none. */
            utm?: components["schemas"]["UTM"] | components["schemas"]["Null"];
            /** @description The URL with `utm` merged, where a visitor is sent (present only when the link has UTM parameters). */
            destination?: string;
            /** @description The link's saved QR style: what `GET …/links/{id}/qr` draws when the request names none of `fg`, `bg`, `ec` and `logo`. Null for the default (black on white, level M, no logo). */
            qr?: components["schemas"]["QRStyle"] | components["schemas"]["Null"];
            /**
             * @description `banned` only by the moderation: visitors get the warning page, and owners cannot change it (see `moderation`). `held` only by the moderation too: a link made while its destination's domain stood banned for phishing answers the warning page until its own review, which bans it or makes it `active` (`moderation.held` is true meanwhile); owners cannot change it.
             * @enum {string}
             */
            status: "active" | "disabled" | "banned" | "held";
            /** Format: date-time */
            expires_at: string | null;
            /** @description Archived: hidden from the links list unless asked for (`archived=true` or `all`); it keeps redirecting. */
            archived: boolean;
            /**
             * Format: date-time
             * @description When the link was archived; null when it is not.
             */
            archived_at: string | null;
            /** @description Names of the link's tags (`GET …/tags`), ordered by name in lower case; `[]` when it has none. */
            tags: string[];
            /** Format: int64 */
            created_by?: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description Whether visitors are asked a password (the password itself is never shown). */
            has_password: boolean;
            /** @description 410 once that many people visited; crawlers never count. */
            max_visits: number | null;
            /** @description Plan feature geo. */
            geo: components["schemas"]["Geo"] | components["schemas"]["Null"];
            /** @description Plan feature ab_test. */
            device_targets: components["schemas"]["DeviceTargets"] | components["schemas"]["Null"];
            /** @description Plan feature geo. */
            country_targets: components["schemas"]["CountryTargets"] | components["schemas"]["Null"];
            /** @description A/B test by weight, sticky per visitor (plan feature ab_test). */
            variants: components["schemas"]["Variant"][] | null;
            wechat_guide: boolean;
            /** @description Asked before the visit; answers at …/responses (plan feature form). */
            form: components["schemas"]["Form"] | components["schemas"]["Null"];
            og: components["schemas"]["OG"] | components["schemas"]["Null"];
            /** @description Rules of this link that the workspace's plan no longer applies (after a downgrade): the link works, these rules are skipped. Only rules that serve the owner (variants, device_targets, country_targets, wechat_guide) are listed: the protective ones (password, geo, form) keep applying after a downgrade and are never listed. */
            inactive_rules?: string[];
            moderation: components["schemas"]["LinkModeration"];
            health?: components["schemas"]["LinkHealth"];
            /** @description The owner's appeal of a ban or flag; only in the answer of GET …/links/{id}, and only when there is one. */
            appeal?: components["schemas"]["Appeal"] | components["schemas"]["Null"];
            /** @description Present and true when the link's custom domain was removed: the link answers nowhere and `short_url` is empty. */
            domain_removed?: boolean;
            /**
             * Format: int64
             * @description People's visits since the link was made (crawlers never count), as the visit rollups hold them: visits are counted a few seconds after the redirect. Only in listings.
             */
            visits?: number;
            /** @description People's visits on each of the last 7 days in `tz`, oldest first, today last (a day is made of the UTC hours that begin in it, as in the statistics). Only in listings asked `with=sparkline`. */
            visits_7d?: number[];
        };
        LinkInput: {
            /** @description http or https URL; no credentials; not this service's own short domain. */
            url: string;
            /** @description Custom code instead of a generated one. */
            alias?: string;
            /** @description Host of the link: the service's short domain (the default) or a verified custom domain of the workspace (`GET …/domains`); any other host is 400 `invalid`. */
            domain?: string;
            title?: string;
            /**
             * @default 302
             * @enum {integer}
             */
            redirect_status?: 301 | 302 | 307;
            /** @default false */
            forward_query?: boolean;
            utm?: components["schemas"]["UTM"];
            /** @description The link's QR style; null, absent or the default keeps none. */
            qr?: components["schemas"]["QRStyle"] | components["schemas"]["Null"];
            /**
             * Format: date-time
             * @description Must be in the future.
             */
            expires_at?: string;
            /** @description Makes the link archived from the start (hidden from the default list). */
            archived?: boolean;
            /** @description Tag names (trimmed; 1 to 50 characters, no control characters, `;` or `,`; one tag per name whatever its case, at most 20). Names the workspace has no tag of make new tags. */
            tags?: string[];
            /**
             * @description Return the workspace's newest active, unexpired link to the same URL if there is one (200) instead of making a new one; ignored with `alias`.
             * @default false
             */
            dedupe?: boolean;
            /** @description Visitors must give it first (plan feature password). Stored hashed; null removes it. */
            password?: string | null;
            /** @description 410 once that many people visited; crawlers never count. */
            max_visits?: number | null;
            /** @description Plan feature geo. */
            geo?: components["schemas"]["Geo"] | components["schemas"]["Null"];
            /** @description Plan feature ab_test. */
            device_targets?: components["schemas"]["DeviceTargets"] | components["schemas"]["Null"];
            /** @description Plan feature geo. */
            country_targets?: components["schemas"]["CountryTargets"] | components["schemas"]["Null"];
            /** @description A/B test by weight, sticky per visitor (plan feature ab_test). */
            variants?: components["schemas"]["Variant"][] | null;
            /** @description WeChat and QQ in-app browsers get an open-in-your-browser page (plan feature browser_guide). */
            wechat_guide?: boolean | null;
            /** @description Asked before the visit; answers at …/responses (plan feature form). */
            form?: components["schemas"]["Form"] | components["schemas"]["Null"];
            og?: components["schemas"]["OG"] | components["schemas"]["Null"];
        };
        LinkPatch: {
            url?: string;
            title?: string;
            /** @enum {integer} */
            redirect_status?: 301 | 302 | 307;
            forward_query?: boolean;
            /** @description Replaces the link's UTM parameters as a whole; null or `{}` clears them. */
            utm?: components["schemas"]["UTM"] | components["schemas"]["Null"];
            /** @description Replaces the link's QR style as a whole; null or the default (`{}`) clears it. */
            qr?: components["schemas"]["QRStyle"] | components["schemas"]["Null"];
            /** @enum {string} */
            status?: "active" | "disabled";
            /** Format: date-time */
            expires_at?: string | null;
            /** @description `true` archives the link (hidden from the default list, still redirecting; an archived link keeps the time it was first archived), `false` brings it back. */
            archived?: boolean;
            /** @description Replaces the link's tags (`[]` or null removes them all); names the workspace has no tag of make new tags. */
            tags?: string[] | null;
            /** @description Visitors must give it first (plan feature password). Stored hashed; null removes it. */
            password?: string | null;
            /** @description 410 once that many people visited; crawlers never count. */
            max_visits?: number | null;
            /** @description Plan feature geo. */
            geo?: components["schemas"]["Geo"] | components["schemas"]["Null"];
            /** @description Plan feature ab_test. */
            device_targets?: components["schemas"]["DeviceTargets"] | components["schemas"]["Null"];
            /** @description Plan feature geo. */
            country_targets?: components["schemas"]["CountryTargets"] | components["schemas"]["Null"];
            /** @description A/B test by weight, sticky per visitor (plan feature ab_test). */
            variants?: components["schemas"]["Variant"][] | null;
            /** @description WeChat and QQ in-app browsers get an open-in-your-browser page (plan feature browser_guide). */
            wechat_guide?: boolean | null;
            /** @description Asked before the visit; answers at …/responses (plan feature form). */
            form?: components["schemas"]["Form"] | components["schemas"]["Null"];
            og?: components["schemas"]["OG"] | components["schemas"]["Null"];
        };
        LinkPage: {
            links: components["schemas"]["Link"][];
            /** @description Pass as `cursor` for the next page; empty on the last page. */
            next_cursor: string;
        };
        BatchRequest: {
            links: components["schemas"]["LinkInput"][];
        };
        BatchResults: {
            results: {
                link?: components["schemas"]["Link"];
                created?: boolean;
                error?: components["schemas"]["ErrorDetail"];
            }[];
        };
        /** @description Countries let through: either allow (only these) or deny (all but these), not both. An unknown country is refused by allow and let through by deny. */
        Geo: {
            allow?: string[];
            deny?: string[];
        };
        /** @description Destination per device. */
        DeviceTargets: {
            /** @description http or https URL. */
            ios?: string;
            /** @description http or https URL. */
            android?: string;
            /** @description http or https URL. */
            desktop?: string;
        };
        /** @description Destination per visitor country (ISO 3166-1 alpha-2 keys). */
        CountryTargets: {
            [key: string]: string;
        };
        Variant: {
            /** @description http or https URL. */
            url: string;
            weight: number;
        };
        FormField: {
            name: string;
            label: string;
            /** @enum {string} */
            type: "text" | "phone" | "email" | "choice";
            required?: boolean;
            /** @description The choices of a choice field. */
            options?: string[];
        };
        Form: {
            fields: components["schemas"]["FormField"][];
        };
        /** @description Open Graph card shown to crawlers and link-preview fetchers instead of the redirect. */
        OG: {
            title: string;
            description?: string;
            /** @description http or https URL. */
            image?: string;
        };
        BulkEditRequest: {
            /** @description IDs of the workspace's links; a repeated ID gets the same answer each time. */
            ids: number[];
            set: components["schemas"]["BulkEditSet"];
        };
        BulkEditResults: {
            /** @description One result per ID, in the order of `ids`. */
            results: {
                /** Format: int64 */
                id: number;
                link?: components["schemas"]["Link"];
                error?: components["schemas"]["ErrorDetail"];
            }[];
        };
        /** @description Campaign parameters. On redirect each one set replaces the destination's own `utm_*` of that name (in its place) or is appended (in the order source, medium, campaign, term, content); every other parameter, their order and the fragment stay as they were. With `forward_query` the visit's query string follows them. */
        UTM: {
            source?: string;
            medium?: string;
            campaign?: string;
            term?: string;
            content?: string;
        };
        /** @description A link's QR style, checked as the image route checks its parameters (400 `qr_color_invalid`, `qr_contrast_low` with field `qr.fg`, `value_invalid` with field `qr.ec`). Answered with the colours as lowercase `#rrggbb` and the level in capitals. */
        QRStyle: {
            /** @description Colour of the dark modules (default `#000000`); darker than `bg`, with a contrast of at least 4.5:1. */
            fg?: string;
            /** @description Background colour (default `#ffffff`). */
            bg?: string;
            /**
             * @description Error correction level, in either case; empty for the default (M). Answered in capitals. Always H when the logo is drawn.
             * @enum {string}
             */
            ec?: "" | "L" | "M" | "Q" | "H" | "l" | "m" | "q" | "h";
            /** @description Draw the workspace's logo in the middle; a code drawn in this style after the logo was removed is drawn without it. */
            logo?: boolean;
        };
        UTMTemplate: {
            /** Format: int64 */
            id: number;
            name: string;
            utm: components["schemas"]["UTM"];
            /** Format: date-time */
            created_at: string;
        };
        UTMTemplateInput: {
            /** @description Unique in the workspace. */
            name: string;
            utm?: components["schemas"]["UTM"];
        };
        UTMTemplateList: {
            templates: components["schemas"]["UTMTemplate"][];
        };
        Me: {
            user: components["schemas"]["User"];
            workspaces: components["schemas"]["Workspace"][];
            /** @description The address the person asked to move to, until its link is used or expires. */
            pending_email: string | null;
            /** @description Whether two-factor sign-in is on (confirmed; a pending enrolment is not). */
            two_factor: boolean;
        };
        MeUpdate: {
            /**
             * @description The language of the person's mails (reason `language_invalid` for any other).
             * @enum {string}
             */
            language?: "en" | "zh";
        };
        MeUpdated: {
            user: components["schemas"]["User"];
        };
        PasswordChange: {
            current_password: string;
            new_password: string;
        };
        EmailChange: {
            /** Format: email */
            email: string;
            current_password: string;
        };
        PendingEmail: {
            /** @description The new address, normalised; it becomes the account's when the mailed link is used. */
            pending_email: string;
        };
        AccountDeletion: {
            current_password: string;
        };
        Session: {
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description When the person signed in.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the session was last renewed (at most one access-token lifetime ago while in use).
             */
            last_used_at: string;
            /** @description The browser's family, "" when unknown. */
            browser: string;
            /** @description The system's family, "" when unknown. */
            os: string;
            /** @description The network the session was last renewed from (IPv4 /24, IPv6 /48), "" when unknown. */
            network: string;
            /** @description The session of the request. */
            current: boolean;
        };
        SessionList: {
            sessions: components["schemas"]["Session"][];
        };
        SessionsEnded: {
            /** @description How many sessions were signed out. */
            ended: number;
        };
        TwoFactorEnrolment: {
            /** @description The TOTP secret, base32, for typing into an authenticator app. */
            secret: string;
            /** @description The `otpauth://totp/…` URL, for a QR code (30 s steps, 6 digits, SHA-1). */
            otpauth_url: string;
            /** @description The `otpauth_url` drawn as a QR code: an SVG document (256 pixels), for showing as an image (for instance as a `data:image/svg+xml` URL). */
            qr_svg: string;
        };
        TwoFactorCode: {
            /** @description A current code of the authenticator app. */
            code?: string;
            /** @description On DELETE only, instead of `code`. */
            recovery_code?: string;
        };
        RecoveryCodes: {
            /** @description Ten codes, each good for one sign-in without the app; shown only now. */
            recovery_codes: string[];
        };
        Member: {
            /** Format: int64 */
            user_id: number;
            /** Format: email */
            email: string;
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "viewer";
            /** Format: date-time */
            created_at: string;
            /** @description The member has two-factor sign-in on (a workspace requiring it locks out the others). */
            two_factor: boolean;
        };
        RoleRequest: {
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "viewer";
        };
        MemberList: {
            members: components["schemas"]["Member"][];
        };
        /** @description What the moderation last decided about the link (docs/moderation.md). */
        LinkModeration: {
            /**
             * @description `pending` until the first review; `passed`; `flagged` for a moderator (the link keeps working); `banned` (the link answers the warning page, and its `status` is `banned`).
             * @enum {string}
             */
            state: "pending" | "passed" | "flagged" | "banned";
            /** @description Score of the last review, 0 (harmless) to 1; null before the first. */
            score: number | null;
            /** @description `phishing`, `malware`, `scam`, `adult`, `spam`, `cloaking` or `benign` from the scorer; after a moderator's ban, the standard reason they gave (`other` too); empty before the first review. */
            category: string;
            /** @description Why, in words. To the link's owner: the words a moderator gave them (`reason_text` of the decision; empty when a ban gave only a standard reason, and when the state was decided by the automatic review or the domain). To moderators (the desk's reads): the scorer's words too. A moderator's private note never appears here. */
            reason: string;
            /**
             * Format: date-time
             * @description Last review or moderator's decision.
             */
            reviewed_at: string | null;
            /** @description Present when the last review took the verdict of a recent review of the same destination (tracking parameters aside) or of its domain's record, instead of opening the browser. The review and its link are named only when they are in the link's own workspace. */
            reused_from?: {
                /** Format: int64 */
                review_id?: number;
                /** Format: int64 */
                link_id?: number;
                /**
                 * Format: date-time
                 * @description When the shared review was made.
                 */
                reviewed_at: string;
            };
            /** @description Present and true while the link is held (its `status` is `held`): made while its destination's domain stood banned for phishing (or by a moderator), it answers the warning page until its own review, served before new links, bans it or releases it. `state` is `pending` meanwhile. */
            held?: boolean;
            /**
             * @description Why the link is held, present with `held`.
             * @enum {string}
             */
            held_reason?: "domain_banned";
            /**
             * @description Who decided the state, once there is one: the automatic review of the page, a moderator, or the domain (its recent record of phishing, or a moderator's ban of the whole domain).
             * @enum {string}
             */
            decided_by?: "review" | "moderator" | "domain";
            /**
             * @description Why, as a code the web app translates (docs/moderation.md#what-the-owner-is-told): the strongest signal of the rules, the category, `incomplete`, `domain_banned`, `domain_record`, or a moderator's standard reason; absent for a pass, and for a ban a moderator gave no reason.
             * @enum {string}
             */
            reason_code?: "domain_banned" | "domain_record" | "incomplete" | "phishing" | "malware" | "scam" | "spam" | "adult" | "cloaking" | "other" | "advance_fee" | "blocklist" | "card_form" | "copied_page" | "crypto_giveaway" | "fake_alert" | "hidden_text" | "hops" | "host_words" | "ip_literal" | "look_alike" | "password_form" | "payment_form" | "posts_elsewhere" | "punycode" | "scam_words" | "secret_form" | "shortener" | "ultimatum";
            appeal?: components["schemas"]["LinkAppeal"];
        };
        /** @description An owner's appeal of a flagged or banned link: one per link, resolved by the next moderator's decision. */
        Appeal: {
            /** Format: int64 */
            link_id: number;
            /** Format: int64 */
            workspace_id: number;
            /**
             * Format: int64
             * @description Who appealed; null for an API key or a deleted account.
             */
            user_id: number | null;
            message: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When the next moderator's decision resolved it; null while open.
             */
            resolved_at: string | null;
            /** @description The deciding action and the words it gave the owner (`unban: the page is harmless`); never the moderator's private note; empty while open. */
            resolution: string;
            /**
             * @description How the appeal was answered; absent while open.
             * @enum {string}
             */
            outcome?: "upheld" | "rejected";
            /** @description The moderator's words to the owner (`owner_message`, else `reason_text`). */
            answer?: string;
        };
        /** @description The owner's appeal and its answer, in the answer of `GET …/links/{id}` (and the desk's file): `open` until a moderator decides; `upheld` when an approval or unban answered it, `rejected` when a ban or `keep_ban` did. */
        LinkAppeal: {
            /** @enum {string} */
            state: "open" | "upheld" | "rejected";
            /** @description The owner's message. */
            message: string;
            /** @description The moderator's words to the owner, when they gave some. */
            answer?: string;
            /**
             * Format: date-time
             * @description When it was answered; while open, when it was made.
             */
            at: string;
        };
        AppealRequest: {
            /** @description Why the link should work: 1 to 2000 characters. */
            message: string;
        };
        /** @description The gist of a review. */
        ReviewSummary: {
            /** Format: int64 */
            id: number;
            score: number;
            category: string;
            reason: string;
            /** @enum {string} */
            scorer: "model" | "heuristic";
            /** @description The model's name when the model scored; empty for the heuristics. */
            model: string;
            /** Format: date-time */
            created_at: string;
        };
        CaptureForm: {
            /** @description URL the form posts to. */
            action: string;
            /** @description It asks for a password. */
            password: boolean;
            /** @description It asks for a payment card. */
            card: boolean;
            fields: string[];
            /** @description What the page tells a person each field is for (its label, aria-label, placeholder and autocomplete, or the text just before it), in the order of `fields`, each up to 60 characters; absent when no field has one. Reviews made before hints were recorded have none. */
            hints?: string[];
        };
        /** @description What one visitor profile saw in a review. */
        Capture: {
            /**
             * @description The visitor the page was opened as.
             * @enum {string}
             */
            profile: "desktop" | "mobile" | "wechat";
            /** @description The destination opened. */
            url: string;
            title: string;
            description: string;
            /** @description Where the browser ended. */
            final_url: string;
            /** @description Every URL the top frame went through, starting with `url`. */
            redirects: string[];
            /** @description HTTP status of the last document; 0 when none. */
            status: number;
            forms: components["schemas"]["CaptureForm"][];
            /** @description Why the capture is incomplete; empty when it is complete. */
            error: string;
            duration_ms: number;
            /** @description Path of the screenshot (PNG, moderators only); null when none was taken. */
            screenshot_url: string | null;
        };
        /** @description A review of a link's destination by the worker. */
        Review: {
            /** Format: int64 */
            id: number;
            score: number;
            category: string;
            reason: string;
            /** @enum {string} */
            scorer: "model" | "heuristic";
            model: string;
            /** @description The destination reviewed. */
            url: string;
            /**
             * @description Why the link was reviewed.
             * @enum {string}
             */
            trigger: "created" | "visits" | "target_changed" | "requested";
            /** @description What went wrong on the way (the model failing before the heuristics ran). */
            notes: string[];
            captures: components["schemas"]["Capture"][];
            duration_ms: number;
            /** Format: date-time */
            created_at: string;
        };
        Actor: {
            /** Format: int64 */
            id: number;
            /** Format: email */
            email: string;
        };
        /** @description A decision on a link: an entry of the audit log. */
        Decision: {
            /** Format: int64 */
            id: number;
            /** Format: int64 */
            link_id: number;
            /** Format: int64 */
            workspace_id: number;
            /**
             * @description `pass`, `flag` and `ban` by the worker; `approve`, `ban`, `unban` and `keep_ban` by a moderator; `ban_domain` and `clear_domain` by a moderator on a whole domain (`domain`).
             * @enum {string}
             */
            action: "pass" | "flag" | "ban" | "approve" | "unban" | "keep_ban" | "ban_domain" | "clear_domain";
            /**
             * @description The state the decision left the link in; for a decision on a whole domain, the domain's (`banned` or `cleared`).
             * @enum {string}
             */
            state: "pending" | "passed" | "flagged" | "banned" | "cleared";
            /** @description The moderator's private note; never shown to the owner. */
            note: string;
            /**
             * @description The standard reason the owner was shown; empty for the worker's decisions.
             * @enum {string}
             */
            reason: "" | "phishing" | "malware" | "scam" | "spam" | "adult" | "cloaking" | "other";
            /** @description The moderator's words to the owner; empty when none. */
            reason_text: string;
            /** @description The moderator; null for the worker, or an account deleted since. */
            actor: components["schemas"]["Actor"] | components["schemas"]["Null"];
            /**
             * Format: int64
             * @description The review decided on (for a moderator, the latest there was); null when none.
             */
            review_id: number | null;
            /** Format: date-time */
            created_at: string;
            /** @description The domain of a decision on a whole domain (actions `ban_domain`, `clear_domain`; then `link_id` and `workspace_id` are 0). Absent for a decision on a link. */
            domain?: string;
        };
        ModerationQueueItem: {
            link: components["schemas"]["Link"];
            /** @description The link's latest review; null when it has none. */
            review: components["schemas"]["ReviewSummary"] | components["schemas"]["Null"];
            workspace: components["schemas"]["ModerationWorkspace"];
            /** @description The workspace's first owner's address; empty when it has none. */
            owner_email: string;
            /**
             * @description The language that owner reads the app's mails in (`en`, `zh`); empty when the workspace has no owner. A moderator's words (`reason_text`, `owner_message`) reach the owner as written: the desk says which language to write them in.
             * @enum {string}
             */
            owner_language: "en" | "zh" | "";
            /**
             * Format: int64
             * @description Visits of people the link has had.
             */
            visits: number;
            appeal?: components["schemas"]["Appeal"];
        };
        /** @description The workspace a queued link belongs to. */
        ModerationWorkspace: {
            /** Format: int64 */
            id: number;
            name: string;
        };
        /** @description How many links each tab of the moderators' desk holds. */
        ModerationCounts: {
            pending: number;
            flagged: number;
            banned: number;
            passed: number;
            /** @description Links with an open appeal. */
            appealed: number;
            /** @description Each count stops there (1000); a count equal to it means at least that many. */
            cap: number;
        };
        ModerationQueuePage: {
            items: components["schemas"]["ModerationQueueItem"][];
            /** @description Empty on the last page. */
            next_cursor: string;
        };
        ModerationLinkFile: {
            link: components["schemas"]["Link"];
            /** @description The latest 20 reviews, newest first. */
            reviews: components["schemas"]["Review"][];
            /** @description The latest 100 decisions, newest first. */
            decisions: components["schemas"]["Decision"][];
            /** @description The owner's appeal; null when there is none. */
            appeal: components["schemas"]["Appeal"] | components["schemas"]["Null"];
            workspace: components["schemas"]["ModerationWorkspace"];
            /** @description The workspace's first owner's address; empty when it has none. */
            owner_email: string;
            /**
             * @description The language that owner reads the app's mails in (`en`, `zh`); empty when the workspace has no owner. A moderator's words (`reason_text`, `owner_message`) reach the owner as written: the desk says which language to write them in.
             * @enum {string}
             */
            owner_language: "en" | "zh" | "";
            /**
             * Format: int64
             * @description Visits of people the link has had.
             */
            visits: number;
        };
        DecisionRequest: {
            /** @enum {string} */
            action: "approve" | "ban" | "unban" | "keep_ban";
            /** @description A private note for moderators and operators, kept in the audit log; never shown to the owner. */
            note?: string;
            /**
             * @description The standard reason shown to the owner (the web app translates it): optional: a ban without one tells the owner only that a moderator banned the link (the web app asks for one). After a ban it is the link's `moderation.category`.
             * @enum {string}
             */
            reason?: "phishing" | "malware" | "scam" | "spam" | "adult" | "cloaking" | "other";
            /** @description Words to the owner, shown with the reason (the link's `moderation.reason`): required with `other` (reason `reason_text_required`). A ban without them shows the standard reason alone; an approval or unban without them keeps what the owner saw. */
            reason_text?: string;
            /** @description The answer to the owner's open appeal (its `answer`), shown on the link's page; without it, `reason_text` answers it. */
            owner_message?: string;
        };
        DecisionResult: {
            link: components["schemas"]["Link"];
            decision: components["schemas"]["Decision"];
        };
        ReviewRequested: {
            /** Format: int64 */
            link_id: number;
            /** Format: date-time */
            due_at: string;
        };
        DomainDecisionRequest: {
            /** @description The moderator's private note, kept in the audit log. */
            note?: string;
        };
        DomainBanRequest: {
            /** @description The moderator's private note, kept in the audit log. */
            note?: string;
            /**
             * @description What every link banned under the domain is banned as: a link ban's standard reasons (`reason` of a decision), shown to each link's owner as its `moderation.category`; `phishing` when absent. Another value is 400, reason `category_unknown`.
             * @enum {string}
             */
            category?: "phishing" | "malware" | "scam" | "spam" | "adult" | "cloaking" | "other";
        };
        DomainDecision: {
            domain: string;
            /** @enum {string} */
            state: "banned" | "cleared";
            /**
             * @description What a banned domain's links are banned as; empty for a cleared domain (and for a held one in the desk's list, whose review says its category).
             * @enum {string}
             */
            category: "phishing" | "malware" | "scam" | "spam" | "adult" | "cloaking" | "other" | "";
            note: string;
            actor: components["schemas"]["Actor"] | components["schemas"]["Null"];
            /** Format: date-time */
            updated_at: string;
        };
        /** @description A domain whose new links are stopped (or were, cleared): a moderator's decision with who made it and the private note, or a hold by its record of phishing bans with the review whose ban holds it. */
        DomainEntry: {
            domain: string;
            /** @enum {string} */
            state: "banned" | "held" | "cleared";
            /**
             * @description What a banned domain's links are banned as; empty for a held or cleared domain (a held domain's review says its category).
             * @enum {string}
             */
            category: "phishing" | "malware" | "scam" | "spam" | "adult" | "cloaking" | "other" | "";
            /** @description The moderator's private note; empty for a held domain. */
            note: string;
            actor: components["schemas"]["Actor"] | components["schemas"]["Null"];
            /** Format: date-time */
            updated_at: string;
            /**
             * Format: int64
             * @description The links with a review of a page on the domain.
             */
            links: number;
            /**
             * Format: date-time
             * @description A held domain's, when its ban leaves its record.
             */
            held_until?: string;
            review?: components["schemas"]["ReviewSummary"];
        };
        /**
         * @description Only null. A field that holds an object or null is written `anyOf: [{$ref: X}, {$ref: Null}]`: `nullable` beside an `allOf` does not let null through the referenced schema, so strict validators refused the null the server sends.
         * @enum {object|null}
         */
        Null: never | null;
        PlanStatus: {
            /**
             * @description The plan in force (a lapsed trial is `free`).
             * @enum {string}
             */
            plan: "free" | "trial" | "personal" | "enterprise";
            /**
             * Format: date-time
             * @description When the workspace's trial ends or ended; null for a trial an operator granted, and after any other plan change.
             */
            trial_ends_at: string | null;
            /** @description The workspace has had its trial. */
            trial_used?: boolean;
            /** @description Each feature of the plans table, and whether this plan has it. */
            features: {
                password: boolean;
                realtime_edit: boolean;
                export: boolean;
                browser_guide: boolean;
                custom_domains: boolean;
                ab_test: boolean;
                batch: boolean;
                geo: boolean;
                form: boolean;
                dashboard: boolean;
                wechat_access: boolean;
                sso: boolean;
                audit_log: boolean;
                webhooks: boolean;
            };
            limits: {
                /**
                 * Format: int64
                 * @description New links a calendar month (UTC); null: unlimited.
                 */
                links_per_month: number | null;
                /**
                 * Format: int64
                 * @description Members, owners included; null: unlimited.
                 */
                members: number | null;
                /**
                 * Format: int64
                 * @description Custom domains, where the plan has them; null: unlimited.
                 */
                custom_domains?: number | null;
                /**
                 * Format: int64
                 * @description API requests a minute; null: unlimited.
                 */
                requests_per_minute?: number | null;
            };
            usage: {
                /** Format: int64 */
                links_this_month: number;
                /** Format: int64 */
                members: number;
            };
        };
        /** @description A workspace on its trial, with the trial's end. */
        TrialWorkspace: components["schemas"]["Workspace"] & {
            /** Format: date-time */
            trial_ends_at: string;
        };
        Money: {
            /**
             * Format: int64
             * @description In the currency's smallest unit (fen for CNY, 100 = ¥1.00).
             */
            amount: number;
            /** @description ISO 4217 code, such as `CNY`. */
            currency: string;
            /** @description How often a recurring price is charged (`month`, `year`), as Stripe's Price object says; absent for a one-off payment and for prices not read from Stripe. */
            interval?: string;
            /**
             * Format: int64
             * @description How many intervals lie between two charges, as Stripe's Price object says (3 with `month`: every three months); absent where `interval` is.
             */
            interval_count?: number;
        };
        PlanOffer: {
            /** @enum {string} */
            id: "free" | "trial" | "personal" | "enterprise";
            /** @description The plan's name in English. */
            name: string;
            prices: {
                /** @description A month of the plan; null: not set. */
                monthly: components["schemas"]["Money"] | components["schemas"]["Null"];
                /** @description A year of the plan; null: not set. */
                yearly: components["schemas"]["Money"] | components["schemas"]["Null"];
                /** @description One payment for the whole plan (the trial: ¥1 for its 7 days); null: none. */
                once: components["schemas"]["Money"] | components["schemas"]["Null"];
            };
            /** @description How long the plan lasts once started (the trial's 7); 0 for plans that last. */
            days: number;
            /** @description How many days after creation a link opens from WeChat on a plan without `wechat_access`. */
            wechat_days: number;
            /** @description Each feature of the plans table, and whether the plan has it. */
            features: {
                password: boolean;
                realtime_edit: boolean;
                export: boolean;
                browser_guide: boolean;
                custom_domains: boolean;
                ab_test: boolean;
                batch: boolean;
                geo: boolean;
                form: boolean;
                dashboard: boolean;
                wechat_access: boolean;
                sso: boolean;
                audit_log: boolean;
                webhooks: boolean;
            };
            limits: {
                /**
                 * Format: int64
                 * @description New links a calendar month (UTC); null: unlimited.
                 */
                links_per_month: number | null;
                /**
                 * Format: int64
                 * @description Members, owners included; null: unlimited.
                 */
                members: number | null;
                /**
                 * Format: int64
                 * @description Custom domains, where the plan has them; null: unlimited.
                 */
                custom_domains: number | null;
                /**
                 * Format: int64
                 * @description API requests a minute; null: unlimited.
                 */
                requests_per_minute: number | null;
            };
        };
        PlanList: {
            /** @description Every plan, cheapest first. */
            plans: components["schemas"]["PlanOffer"][];
            /** @description The features in the order to show them. */
            features: ("password" | "realtime_edit" | "export" | "browser_guide" | "custom_domains" | "ab_test" | "batch" | "geo" | "form" | "dashboard" | "wechat_access" | "sso" | "audit_log" | "webhooks")[];
            /** @description Whether plans can be bought here. False: the operator sets a workspace's plan, and the trial starts without payment. */
            checkout: boolean;
        };
        SCIMToken: {
            /** Format: int64 */
            id: number;
            name: string;
            /** @description The token's first 14 characters, to tell tokens apart. */
            prefix: string;
            /** Format: int64 */
            created_by: number | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Updated at most once a minute.
             */
            last_used_at: string | null;
        };
        SCIMTokenList: {
            scim_tokens: components["schemas"]["SCIMToken"][];
            /** @description The workspace's SCIM base URL (PUBLIC_URL/scim/v2/{workspace}), for the provider. */
            url: string;
        };
        SCIMTokenRequest: {
            /** @description A name to tell tokens apart; `SCIM` when left out. */
            name?: string;
        };
        NewSCIMToken: {
            /** Format: int64 */
            id: number;
            /** @description The secret, shown once. Only its SHA-256 is stored. */
            token: string;
            name: string;
            prefix: string;
            /** Format: date-time */
            created_at: string;
            /** @description The workspace's SCIM base URL. */
            url: string;
        };
        SCIMRoles: {
            /** @description Group display names (any case) to the role their members get. */
            mappings: {
                [key: string]: "admin" | "member" | "viewer";
            };
        };
        MemberSession: {
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description When the person signed in.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the session was last let into a workspace (written at most once a minute per server; the server answering knows its own later ones); null when never.
             */
            last_active_at: string | null;
            /**
             * Format: date-time
             * @description When the session ends unless renewed.
             */
            expires_at: string;
            /** @description The user agent summarised, such as "Firefox on Linux"; "" when unknown. */
            device: string;
            /** @description The keyed hash of the address its newest token was issued to (32 hex digits), equal for equal addresses; "" when unknown. Never the address. */
            ip_hash: string;
            /** @description The session of the request. */
            current: boolean;
        };
        MemberSessionList: {
            sessions: components["schemas"]["MemberSession"][];
        };
        WorkspaceSessionsEnded: {
            /** @description How many sessions were signed out. */
            ended: number;
            /** @description Of how many people. */
            people: number;
        };
        /** @description OpenID Connect (`protocol` `oidc`, the default) takes `issuer`, `client_id` and `client_secret`; SAML 2.0 (`protocol` `saml`) takes the provider's metadata as `idp_metadata_xml` or `idp_metadata_url` (one of them; neither keeps the stored metadata). */
        SSORequest: {
            /**
             * @default oidc
             * @enum {string}
             */
            protocol?: "oidc" | "saml";
            /** @description OpenID Connect. The provider's issuer URL (https), as its discovery document names it. */
            issuer?: string;
            /** @description OpenID Connect. */
            client_id?: string;
            /** @description OpenID Connect. Write-only; required the first time, empty or absent keeps the stored one. */
            client_secret?: string;
            /** @description SAML. The identity provider's metadata (an EntityDescriptor with an IDPSSODescriptor, a SingleSignOnService with the HTTP-Redirect binding and a signing certificate), at most 512 KiB. */
            idp_metadata_xml?: string;
            /** @description SAML. Where to fetch the identity provider's metadata (https; through the address guard, as OpenID discovery is fetched). Fetched when the settings are saved. */
            idp_metadata_url?: string;
            /** @description The domain whose addresses sign in through the provider, such as example.com. */
            email_domain: string;
            /** @description Refuse passwords for the domain's addresses (once the domain is proven), bind the workspace's members of the domain to single sign-on, and end their password sessions. */
            enforce?: boolean;
        };
        /** @description The DNS record that proves the email domain. */
        SSOVerification: {
            /** @enum {string} */
            type: "TXT";
            /** @description `_shortlink-sso.<email_domain>` */
            name: string;
            /** @description The value the record must hold. */
            value: string;
            /**
             * Format: date-time
             * @description Not kept for single sign-on (always null).
             */
            checked_at?: string | null;
            /** @description What the look just made found wrong; absent otherwise. */
            problem?: string;
            /**
             * @description The problem named for clients that explain it in their own words.
             * @enum {string}
             */
            problem_reason?: "dns_lookup_failed" | "txt_record_missing";
        };
        SSOSettings: {
            issuer: string;
            client_id: string;
            /** @description A client secret is stored (it is never shown). */
            client_secret_set: boolean;
            email_domain: string;
            enforce: boolean;
            /** @description The TXT record proved the email domain. */
            verified: boolean;
            /** Format: date-time */
            verified_at: string | null;
            verification: components["schemas"]["SSOVerification"];
            /** @description The redirect URI to register with the provider. */
            callback_url: string;
            /** Format: date-time */
            updated_at: string;
            /** @enum {string} */
            protocol: "oidc" | "saml";
            /** @description SAML. Where the provider's metadata was fetched; empty when it was uploaded. */
            idp_metadata_url: string;
            saml: components["schemas"]["SAMLServiceProvider"];
        };
        /** @description The workspace's SAML service provider, to register with its identity provider (for OpenID Connect settings too, so that switching needs no second look). */
        SAMLServiceProvider: {
            /** @description The service provider's entity ID (its metadata URL). */
            entity_id: string;
            /** @description The assertion consumer service (HTTP-POST binding). */
            acs_url: string;
            /** @description The service provider's metadata (GET /auth/saml/{workspace}/metadata). */
            metadata_url: string;
        };
        StatsPoint: {
            /**
             * Format: date-time
             * @description Start of the hour or day, in the range's zone.
             */
            start: string;
            /**
             * Format: int64
             * @description People's visits.
             */
            visits: number;
            /**
             * Format: int64
             * @description Crawlers' visits.
             */
            bots?: number;
        };
        StatsCount: {
            key: string;
            /** Format: int64 */
            visits: number;
        };
        /** @description A link's statistics over a range. */
        LinkStats: {
            /** Format: int64 */
            link_id?: number;
            /**
             * Format: date-time
             * @description Start of the range answered (whole hours), in `tz`.
             */
            from?: string;
            /**
             * Format: date-time
             * @description End of the range answered, not included.
             */
            to?: string;
            tz?: string;
            /**
             * Format: int64
             * @description People's visits.
             */
            visits: number;
            /**
             * Format: int64
             * @description People, counted once per UTC day.
             */
            unique_visitors: number;
            /**
             * Format: int64
             * @description Crawlers' visits.
             */
            bots: number;
            series: {
                hourly: components["schemas"]["StatsPoint"][];
                daily: components["schemas"]["StatsPoint"][];
            };
            /** @description The filters answered, by parameter name (`country`, `device`, …); absent when the request named none. */
            filter?: {
                [key: string]: string;
            };
            breakdowns: {
                /** @description ISO 3166-1 alpha-2 codes. */
                country: components["schemas"]["StatsCount"][];
                /** @description `ios`, `android`, `desktop`, `other`. */
                device: components["schemas"]["StatsCount"][];
                os: components["schemas"]["StatsCount"][];
                browser: components["schemas"]["StatsCount"][];
                /** @description Hosts of the referring pages. */
                referrer: components["schemas"]["StatsCount"][];
                /** @description The variants' URLs. */
                variant: components["schemas"]["StatsCount"][];
                /** @description Apps whose in-app browser it was (WeChat, QQ, …). */
                in_app?: components["schemas"]["StatsCount"][];
                /** @description The `utm_source` parameter of the short link's query string (`/abc?utm_source=mail`), unescaped, at most 100 bytes. */
                utm_source?: components["schemas"]["StatsCount"][];
                /** @description The `utm_medium` parameter of the short link's query string. */
                utm_medium?: components["schemas"]["StatsCount"][];
                /** @description The `utm_campaign` parameter of the short link's query string. */
                utm_campaign?: components["schemas"]["StatsCount"][];
            };
        };
        DashboardDay: {
            /** Format: date */
            date: string;
            /**
             * Format: int64
             * @description Links created.
             */
            links: number;
            /**
             * Format: int64
             * @description People's visits.
             */
            visits: number;
            /**
             * Format: int64
             * @description Crawlers' visits.
             */
            bots?: number;
            /**
             * Format: int64
             * @description People of the day, each counted once whichever of the workspace's links they visited (a HyperLogLog estimate past a few thousand people a day: about 0.8% standard error); narrowed to a tag, the sum of the tagged links' people.
             */
            uniques?: number;
        };
        TopLink: {
            /** Format: int64 */
            id: number;
            /** Format: int64 */
            workspace_id?: number;
            code: string;
            short_url: string;
            /**
             * Format: int64
             * @description People's visits over the dashboard's days.
             */
            visits: number;
            /** Format: int64 */
            bots?: number;
        };
        /** @description The days of a workspace over a range (the last 14 unless asked otherwise). */
        Dashboard: {
            tz?: string;
            /**
             * Format: date-time
             * @description Start of the range answered (a midnight in `tz`).
             */
            from?: string;
            /**
             * Format: date-time
             * @description End of the range answered, not included (a midnight in `tz`).
             */
            to?: string;
            today: components["schemas"]["DashboardDay"];
            days: components["schemas"]["DashboardDay"][];
            top_links: components["schemas"]["TopLink"][];
        };
        /** @description A label of a workspace's links. Names are unique per workspace whatever their case; links show a tag's name as it is now (a rename shows on every link at once). */
        Tag: {
            /** Format: int64 */
            id: number;
            name: string;
            /** @description `#rrggbb`, lower case. */
            color: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: int64
             * @description How many links carry the tag, archived ones included: in the answer of `GET …/tags` only.
             */
            link_count?: number;
        };
        TagInput: {
            /** @description Trimmed; 1 to 50 characters, no control characters, `;` or `,`. */
            name: string;
            /** @description `#RRGGBB` in either case (answered in lower case). Absent: one of a fixed palette of ten, picked by the name. */
            color?: string;
        };
        TagPatch: {
            name?: string;
            color?: string;
        };
        TagList: {
            tags: components["schemas"]["Tag"][];
        };
        WebhookRequest: {
            /** @description Where deliveries are posted; https. */
            url: string;
            events: ("link.created" | "link.updated" | "link.deleted" | "link.clicked" | "link.banned" | "domain.verified" | "import.finished")[];
        };
        WebhookPatch: {
            url?: string;
            events?: ("link.created" | "link.updated" | "link.deleted" | "link.clicked" | "link.banned" | "domain.verified" | "import.finished")[];
            enabled?: boolean;
        };
        Webhook: {
            /** Format: int64 */
            id: number;
            url: string;
            events: string[];
            /** @description False once disabled by hand or after 50 failed deliveries in a row. */
            enabled: boolean;
            /** @description Deliveries failed (every retry spent) since the last delivered one. */
            failures_in_row: number;
            /** Format: date-time */
            created_at: string;
        };
        WebhookCreated: components["schemas"]["Webhook"] & {
            /** @description The signing secret, `whsec_` and the base64 of 32 random bytes; shown only here. */
            secret: string;
        };
        WebhookList: {
            webhooks: components["schemas"]["Webhook"][];
        };
        WebhookDelivery: {
            /** Format: int64 */
            id: number;
            /** @description The message's `webhook-id`, the same on every attempt. */
            message_id: string;
            event: string;
            /** @description Attempts made so far. */
            attempt: number;
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            /** @description The receiver's status code on the last attempt; null when none came. */
            response_code: number | null;
            /** @description Why the last attempt failed; empty when it did not. */
            error: string;
            /**
             * Format: date-time
             * @description When the last attempt was made (or the delivery written, before any).
             */
            at: string;
            /** @description The Content-Type of the receiver's answer on the last attempt; empty when none came. */
            response_content_type: string;
            /** @description The answer's body was longer than the 4 KiB kept. */
            response_truncated: boolean;
            /**
             * Format: int64
             * @description The delivery this one sent again (POST …/resend), null otherwise; that delivery may since have been purged.
             */
            resent_from: number | null;
        };
        WebhookDeliveryDetail: components["schemas"]["WebhookDelivery"] & {
            /** @description The headers of the last attempt's request, names in lower case; `webhook-signature` shows only its scheme (`v1,…`). Empty before any attempt. */
            request_headers: {
                [key: string]: string;
            };
            /** @description The JSON body of the request, as sent; empty before any attempt. */
            request_body: string;
            /** @description The first 4 KiB of the receiver's answer, as text (invalid UTF-8 and NUL bytes shown as `?`); `response_truncated` says when it was longer. */
            response_body: string;
        };
        WebhookDeliveryList: {
            deliveries: components["schemas"]["WebhookDelivery"][];
        };
        WebhookTest: {
            delivery: components["schemas"]["WebhookDeliveryDetail"];
        };
        Workspace: {
            /** Format: int64 */
            id: number;
            name: string;
            /** @enum {string} */
            plan: "free" | "trial" | "personal" | "enterprise";
            /**
             * @description The caller's role, where known.
             * @enum {string}
             */
            role?: "owner" | "admin" | "member" | "viewer";
            /** @description Members must sign in with two-factor sign-in to reach the workspace (applies while the plan has `sso`; kept but not applied below it). */
            require_2fa?: boolean;
            /** @description The session policy's maximum age, a Go duration such as "12h": a session that began longer ago gets 401 `session_max_age` on the workspace's routes. Null: no limit. Applies while the plan has `sso`. */
            session_max_age?: string | null;
            /** @description The session policy's idle timeout, a Go duration such as "30m": a session not let into a workspace for longer gets 401 `session_idle_timeout` on the workspace's routes. Null: no limit. Applies while the plan has `sso`. */
            session_idle_timeout?: string | null;
            /** Format: date-time */
            created_at: string;
            billing?: components["schemas"]["BillingSummary"];
        };
        NameRequest: {
            name: string;
        };
        /** @description At least one of the fields; without `require_2fa` or a session policy field the name is required. */
        WorkspaceUpdate: {
            name?: string;
            /** @description Owners only; turning it on needs a plan with `sso` and the owner's own 2FA. */
            require_2fa?: boolean;
            /** @description Owners only. A Go duration from "5m" to "2160h" (90 days); null or "" clears it. Setting it needs a plan with `sso` (403 `plan_required`); clearing it does not. Not a duration: 400 `duration_invalid`; out of bounds: 400 `session_limit_out_of_range`. */
            session_max_age?: string | null;
            /** @description Owners only; as `session_max_age`, with the same bounds. */
            session_idle_timeout?: string | null;
        };
        WorkspaceList: {
            workspaces: components["schemas"]["Workspace"][];
        };
        TransferRequest: {
            /**
             * Format: int64
             * @description The member who becomes the owner.
             */
            user_id: number;
        };
    };
    responses: {
        /** @description Invalid input (code `invalid`). */
        Invalid: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not signed in, or the token or API key is invalid, expired or revoked (code `unauthorized`). */
        Unauthorized: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Forbidden (code `forbidden`): the role or the API key's scopes do not allow this (the message names a missing scope), or a cookie-authenticated change came without a matching `X-CSRF-Token` header. */
        Forbidden: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not found (code `not_found`). A workspace the caller is not a member of answers exactly like one that does not exist. */
        NotFound: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Conflict (code `conflict`). */
        Conflict: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many requests (code `rate_limited`). Every API request is counted against a budget of requests a minute (see `RateLimit-Limit`); past it, this answer until `Retry-After`. A batch create and a bulk edit cost one request per link, a webhook's test delivery ten. Logins also have limits of their own: per (email, client address), per client address (an IPv6 address by its /64) and per email, where only failed logins count; sign-ups count against the client address; invitations against the workspace. */
        RateLimited: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many attempts (code `rate_limited`), for two reasons. `second_factor_locked`: ten codes in a row for this account were wrong (TOTP and recovery codes alike, at sign-in and on DELETE /me/2fa, from any client address), so no code is checked, not even a right one, until `Retry-After`. The lockout lasts 15 minutes, then 1 hour, 4 hours, 16 hours, and 24 hours after each further ten wrong codes; a right code starts the count afresh. The account's address is told by mail when a lockout starts. `rate_limited`: the login budgets (per email and client address, per client address, per email) are spent, as by wrong passwords, or the API's budget of requests. */
        SecondFactorRefused: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is larger than MAX_BODY_BYTES (code `too_large`). */
        TooLarge: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The path does not take this method (code and reason `method_not_allowed`): the answer of every path to a method it has no operation for. Not listed under each operation, which describe the methods a path takes. */
        MethodNotAllowed: {
            headers: {
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description PostgreSQL cannot be reached, a write did not finish within `WRITE_TIMEOUT` (not acknowledged: it may or may not have taken effect), or the server is shutting down (code `unavailable`); retry later, after `Retry-After` seconds when it is given. */
        Unavailable: {
            headers: {
                /** @description Seconds to wait before trying again (sent when a write's deadline, WRITE_TIMEOUT, passed). */
                "Retry-After"?: number;
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many sign-ins at once (code `unavailable`): every password-hashing slot (`PASSWORD_HASH_CONCURRENCY`) stayed busy for `PASSWORD_HASH_WAIT`, and the password was not checked; or PostgreSQL cannot be reached. Retry after `Retry-After` seconds when it is given. */
        HashingBusy: {
            headers: {
                /** @description Seconds to wait before trying again (sent when the password-hashing queue was full). */
                "Retry-After"?: number;
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many images at once on this server (code `unavailable`, reason `qr_busy`): every image slot (`QR_RENDERS`: drawing a PNG code, decoding an uploaded logo) stayed busy for `QR_RENDER_WAIT`, and nothing was drawn; or PostgreSQL cannot be reached, or a write passed `WRITE_TIMEOUT`. Retry after `Retry-After` seconds. */
        ImageBusy: {
            headers: {
                /** @description Seconds to wait before trying again (sent when every image slot was busy). */
                "Retry-After"?: number;
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many requests (code `rate_limited`). A PNG code this server draws costs the workspace's budget one request per 512×512 pixels of its area, started (a 2048-pixel code 16, at most the whole budget); one it answers from its cache, and an SVG, cost one. A drawing the budget cannot pay is refused and counts as one request. */
        QRRateLimited: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Requests a minute of the budget this request was counted against: the workspace's plan (`requests_per_minute`) on workspace routes and for API keys, the free plan's for a signed-in user elsewhere, `RATE_LIMIT_ANONYMOUS` per client address without credentials. Absent on a plan without a limit. */
        "RateLimit-Limit": number;
        /** @description Requests the budget lets through now. */
        "RateLimit-Remaining": number;
        /** @description Seconds until the budget is full again. */
        "RateLimit-Reset": number;
        /** @description Seconds to wait before trying again. */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    adminListWorkspaces: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page; opaque. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of workspaces. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminWorkspacePage"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    adminUpdateWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanRequest"];
            };
        };
        responses: {
            /** @description The workspace on its new plan. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            /** @description Unknown plan (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such workspace (code `not_found`). */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    adminListUsers: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page; opaque. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUserPage"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    adminUpdateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description User ID. */
                user: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SystemRoleRequest"];
            };
        };
        responses: {
            /** @description The user with the new role. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Unknown system role (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The caller is not an operator (code `forbidden`), or the account's email address is not verified and the role is not `user` (code `email_unverified`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user (code `not_found`). */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    adminStats: {
        parameters: {
            query?: {
                /** @description IANA time zone of the days and of the times answered, such as `Asia/Shanghai`; UTC when absent. An unknown zone is a 400 `invalid`. */
                tz?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dashboard. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminDashboard"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    adminAudit: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page; opaque. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the audit log. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPage"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAPIKeys: {
        parameters: {
            query?: {
                /** @description `true` lists revoked keys too, with `revoked_at` and `revoked_reason`. */
                revoked?: boolean;
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Live keys (every key with `revoked=true`); never their secrets. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["APIKeyList"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    createAPIKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["APIKeyRequest"];
            };
        };
        responses: {
            /** @description The key, with its secret `key`, shown this once. Send it as `Authorization: Bearer <key>`. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewAPIKey"];
                };
            };
            /** @description Invalid name or scopes (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    revokeAPIKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description API key ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked; the key stops working at once on this node and within 5 seconds on every other. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getAppLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Domain ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The files. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppLinks"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    putAppLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Domain ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppLinks"];
            };
        };
        responses: {
            /** @description The files as stored. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppLinks"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteAppLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Domain ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cleared. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 200 (default 50; larger sizes are cut to 200). */
                limit?: number;
                /** @description The `next_cursor` of the previous page; opaque. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceAuditPage"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    exportAuditEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events as CSV (`Content-Disposition: attachment`). */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    signup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignupRequest"];
            };
        };
        responses: {
            /** @description Signed up and signed in. */
            201: {
                headers: {
                    /** @description Session cookies for the web app: `sl_access` (HttpOnly, SameSite=Lax, Path=/), `sl_refresh` (HttpOnly, SameSite=Strict, Path=/api/v1/auth) and `sl_csrf` (readable by scripts, SameSite=Lax, Path=/); Secure on https deployments. */
                    "Set-Cookie"?: string;
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupResponse"];
                };
            };
            400: components["responses"]["Invalid"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            /** @description The invitation of `invitation` has expired (code `gone`, reason `invitation_expired`); the message names whom to ask to resend it. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["HashingBusy"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Credentials"];
            };
        };
        responses: {
            /** @description Signed in, or (2FA on) the token of the second step. */
            200: {
                headers: {
                    /** @description Session cookies for the web app: `sl_access` (HttpOnly, SameSite=Lax, Path=/), `sl_refresh` (HttpOnly, SameSite=Strict, Path=/api/v1/auth) and `sl_csrf` (readable by scripts, SameSite=Lax, Path=/); Secure on https deployments. */
                    "Set-Cookie"?: string;
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResponse"] | components["schemas"]["MFAChallenge"];
                };
            };
            400: components["responses"]["Invalid"];
            /** @description Wrong email or password; both answer with the same message (code `unauthorized`). */
            401: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The address's domain signs in with single sign-on only (reason `sso_required`; code `forbidden`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["HashingBusy"];
        };
    };
    loginSecondStep: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginSecondStep"];
            };
        };
        responses: {
            /** @description Signed in. */
            200: {
                headers: {
                    /** @description The session cookies, as POST /auth/login sets them. */
                    "Set-Cookie"?: string;
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResponse"];
                };
            };
            400: components["responses"]["Invalid"];
            /** @description The token is unknown, expired or used (reason `mfa_token_invalid`), or the code is wrong (`code_invalid`) or used already (`code_used`). */
            401: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The first step was a password, and the address's domain now signs in with single sign-on only (reason `sso_required`, checked before the code); or the sign-in came through a workspace's provider that no longer signs the address in (`sso_not_configured` is 404). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["SecondFactorRefused"];
            503: components["responses"]["Unavailable"];
        };
    };
    refreshSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RefreshRequest"];
            };
        };
        responses: {
            /** @description A new access token, and the next refresh token (the one sent is now used up). */
            200: {
                headers: {
                    /** @description Session cookies for the web app: `sl_access` (HttpOnly, SameSite=Lax, Path=/), `sl_refresh` (HttpOnly, SameSite=Strict, Path=/api/v1/auth) and `sl_csrf` (readable by scripts, SameSite=Lax, Path=/); Secure on https deployments. */
                    "Set-Cookie"?: string;
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResponse"];
                };
            };
            400: components["responses"]["Invalid"];
            /** @description The refresh token is missing, unknown, expired or already used (code `unauthorized`). A token used a second time after the grace window revokes its whole session. */
            401: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The refresh token came in the `sl_refresh` cookie without a matching `X-CSRF-Token` header (code `forbidden`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RefreshRequest"];
            };
        };
        responses: {
            /** @description Signed out; the session's refresh tokens are revoked and the cookies cleared. */
            204: {
                headers: {
                    /** @description Clears the session cookies. */
                    "Set-Cookie"?: string;
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Invalid"];
            /** @description The refresh token came in the cookie without a matching `X-CSRF-Token` header (code `forbidden`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    verifyEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description The address is verified. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserResponse"];
                };
            };
            /** @description Malformed body, or the token is unknown, expired or already used (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An email-change link that would move an account bound to a workspace enforcing single sign-on out of its domain (reason `sso_required`; the link stays unused). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link of an address change, whose address another account took meanwhile (code `conflict`, reason `email_taken`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordResetRequest"];
            };
        };
        responses: {
            /** @description If the email has an account, a reset link is on its way. */
            202: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Invalid"];
            /** @description The address's domain signs in with single sign-on only (reason `sso_required`; code `forbidden`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    confirmPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordResetConfirm"];
            };
        };
        responses: {
            /** @description The password is changed. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed body, a password of the wrong length, or a token that is unknown, expired or already used (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The account's address is in a domain whose workspace enforces single sign-on: it has no password of its own (reason `sso_required`; the link stays unused). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getBilling: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace's billing. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Billing"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Billing is off on this service (code `conflict`, reason `billing_disabled`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    billingCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckoutRequest"];
            };
        };
        responses: {
            /** @description The Checkout page to send the owner to. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentPage"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Billing is off (reason `billing_disabled`), or the workspace has a live subscription (reason `subscription_active`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    billingPortal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The portal page to send the owner to. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Billing is off (reason `billing_disabled`), or the workspace never paid (reason `billing_no_customer`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    billingWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description Stripe's signature of the body (`t=…,v1=…`). */
                "Stripe-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Received (applied, or already applied, or ignored). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookReceived"];
                };
            };
            /** @description The signature is missing, malformed, too old or does not match (reason `webhook_signature`), or the event cannot be read. Nothing changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Billing is off on this service (reason `billing_disabled`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is over `MAX_BODY_BYTES`. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The event could not be stored (code `internal`); nothing changed and Stripe sends it again. Counted in `shortlink_billing_webhook_failures_total{reason="store"}`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            503: components["responses"]["Unavailable"];
        };
    };
    listDomains: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace's domains, oldest first. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    createDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DomainRequest"];
            };
        };
        responses: {
            /** @description The pending domain and the record that proves it. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            /** @description An invalid host name (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description The workspace has this host name already, or another workspace has it verified (code `conflict`): a host name belongs to one workspace at a time. */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Domain ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domain. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Domain ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Domain ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DomainPatch"];
            };
        };
        responses: {
            /** @description The domain. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    verifyDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Domain ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domain, verified or still pending. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description Another workspace verified this host name first (code `conflict`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listFormResponses: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of responses. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FormResponsePage"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    exportFormResponses: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The responses as CSV (`Content-Disposition: attachment`). */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    checkLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link, its `health` as the check left it. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Link"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listImports: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of imports. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportPage"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    createImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The CSV file.
                     */
                    file: string;
                };
                "text/csv": string;
            };
        };
        responses: {
            /** @description The import is stored and queued; follow it at `Location`. */
            202: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The import's URL. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Import"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description The file is larger than `IMPORT_MAX_BYTES` or has more than `IMPORT_MAX_ROWS` rows (code `too_large`). */
            413: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Import ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The import. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Import"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    importFailures: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Import ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the import's failed rows. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportFailurePage"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    importResults: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Import ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The results as CSV (`Content-Disposition: attachment`). */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending invitations. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    invite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InviteRequest"];
            };
        };
        responses: {
            /** @description The invitation; the invitee accepts or declines it. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description The address is already invited to the workspace, or belongs to a member (code `conflict`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    cancelInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Invitation ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Withdrawn. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    resendInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Invitation ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invitation, mailed again. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    previewInvitation: {
        parameters: {
            query: {
                /** @description The secret of the invitation mail's link. */
                token: string;
            };
            header?: never;
            path: {
                /** @description Invitation ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invitation. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationPreview"];
                };
            };
            400: components["responses"]["Invalid"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listBulkJobs: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 20). */
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of bulk jobs. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkJobPage"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    createBulkJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkJobRequest"];
            };
        };
        responses: {
            /** @description The job is stored and queued; follow it at `Location`. */
            202: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description The job's URL. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkJob"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getBulkJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Bulk job ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkJob"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    cancelBulkJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Bulk job ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job as it is now (`cancel_requested` true). */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkJob"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    duplicateLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new link. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Link"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listLinkShares: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The shares. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareList"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    shareLinkStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The share. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Share"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description The link has 20 shares already (code `conflict`, reason `shares_too_many`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    revokeLinkShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
                /** @description The share's ID. */
                share_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSharedStats: {
        parameters: {
            query?: {
                /** @description Start of the range, as in `GET …/links/{id}/stats`. */
                from?: string;
                /** @description End of the range, not included, as in `GET …/links/{id}/stats`. */
                to?: string;
                /** @description IANA time zone of the days and times answered; UTC when absent. */
                tz?: string;
                /** @description Filter: only the visits with this `country` (a country's ISO 3166-1 code of two capital letters, such as `DE`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                country?: string;
                /** @description Filter: only the visits with this `device` (`ios`, `android`, `desktop` or `other`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                device?: string;
                /** @description Filter: only the visits with this `os` (an operating system as the `os` breakdown names it, such as `iOS`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                os?: string;
                /** @description Filter: only the visits with this `browser` (a browser as the `browser` breakdown names it, such as `Chrome Mobile`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                browser?: string;
                /** @description Filter: only the visits with this `referrer` (a referring page's host, such as `t.co`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                referrer?: string;
                /** @description Filter: only the visits with this `in_app` (an in-app browser as the `in_app` breakdown names it, such as `WeChat`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                in_app?: string;
                /** @description Filter: only the visits with this `utm_source` (a `utm_source` value.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                utm_source?: string;
                /** @description Filter: only the visits with this `utm_medium` (a `utm_medium` value.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                utm_medium?: string;
                /** @description Filter: only the visits with this `utm_campaign` (a `utm_campaign` value.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                utm_campaign?: string;
            };
            header?: never;
            path: {
                /** @description The share's ID. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The statistics. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedStats"];
                };
            };
            400: components["responses"]["Invalid"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listLinks: {
        parameters: {
            query?: {
                /** @description Text searched in URL, code and title (at most 200 characters). */
                q?: string;
                /** @description Only links in this status; `expired` is the links whose expiry has passed, whatever their status. */
                status?: "active" | "disabled" | "banned" | "held" | "expired";
                /** @description Only links on this domain: the service's short domain or a verified custom domain of the workspace, by host name (400 `invalid` for any other). Absent or empty: every domain. */
                domain?: string;
                /** @description Only links carrying the tag of this name, in any case (`GET …/tags`). Repeated (up to 10 times), only links carrying every one of them. A name the workspace has no tag of answers an empty page. */
                tag?: string[];
                /** @description Only links whose destination's checks made them `broken` (failed twice in a row) or `ok` (see `health` in the link answer). Links not checked yet match neither. Another value answers 400 `value_invalid`. */
                health?: "ok" | "broken";
                /** @description `false` (default): links not archived; `true`: archived links only; `all`: both. Anything else answers 400 `value_invalid`. */
                archived?: "false" | "true" | "all";
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description `next_cursor` of the previous page, in the same `sort`; a cursor of another order is refused (400 `invalid`, reason `bad_cursor`). */
                cursor?: string;
                /** @description The order: `-created` (default, newest first), `created` (oldest first), `-visits` (most people's visits since made first), `visits` (fewest first), `-updated` (most recently changed first) or `updated` (least recently changed first); ties by creation, in the same direction. Anything else: 400 `invalid`, reason `bad_sort`, field `sort`. */
                sort?: "-created" | "created" | "-visits" | "visits" | "-updated" | "updated";
                /** @description `sparkline` adds `visits_7d` to every link (400 `invalid`, reason `bad_with`, for any other value). */
                with?: "sparkline";
                /** @description IANA time zone of the days of `visits_7d` (default UTC; 400 `invalid`, reason `bad_tz`, for a name that is not one). */
                tz?: string;
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of links. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkPage"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    createLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinkInput"];
            };
        };
        responses: {
            /** @description With `dedupe`: the workspace's existing link to this URL. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Link"];
                };
            };
            /** @description The new link. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Link"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    bulkEditLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkEditRequest"];
            };
        };
        responses: {
            /** @description One result per ID, in order. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkEditResults"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    createLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchRequest"];
            };
        };
        responses: {
            /** @description One result per row, in order. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchResults"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    lookupLink: {
        parameters: {
            query?: {
                /** @description The full short URL, e.g. https://sho.rt/abc123. */
                short_url?: string;
                /** @description The code or alias. */
                code?: string;
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Link"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Link"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinkPatch"];
            };
        };
        responses: {
            /** @description The changed link. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Link"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    appealLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AppealRequest"];
            };
        };
        responses: {
            /** @description The appeal. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Appeal"];
                };
            };
            /** @description A message that is empty or longer than 2000 characters, or a body that is not the JSON object described (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description The link is neither flagged nor banned, or was appealed before (code `conflict`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getLogo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The logo. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description The workspace has no logo. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["ImageBusy"];
        };
    };
    putLogo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "image/png": string;
            };
        };
        responses: {
            /** @description Stored. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["ImageBusy"];
        };
    };
    deleteLogo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed (or there was none). */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user and every workspace they belong to, with their role in each. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountDeletion"];
            };
        };
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The current password is missing (reason `current_password_required`) or wrong (reason `wrong_password`), field `current_password`, or the body is not valid (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The person is the only owner of workspaces with other members, named in the message (code `conflict`, reason `owns_shared_workspace`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MeUpdate"];
            };
        };
        responses: {
            /** @description The person as they are now. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeUpdated"];
                };
            };
            /** @description A language other than `en` or `zh` (reason `language_invalid`, field `language`), or a body that is not valid (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    resendVerification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A new link is on its way. */
            202: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The address is verified already (code `conflict`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listMyInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending invitations. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Invitation ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace joined, with the new role. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description An API key is calling (code `forbidden`), or the caller's email address is not verified yet (code `email_unverified`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such invitation addressed to the caller's email (code `not_found`). */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The invitation has expired (code `gone`, reason `invitation_expired`); the message names whom to ask to resend it. */
            410: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    declineInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Invitation ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Declined. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such invitation addressed to the caller's email (code `not_found`). */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description Changed. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The new password is not 8 to 256 characters (reason `password_length`, field `new_password`). The current password is missing (reason `current_password_required`) or wrong (reason `wrong_password`), field `current_password`, or the body is not valid (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    enrolTwoFactor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret, to be confirmed. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorEnrolment"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    disableTwoFactor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TwoFactorCode"];
            };
        };
        responses: {
            /** @description Off; the secret and the recovery codes are forgotten. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The code is missing (reason `code_required`), wrong (`code_invalid`) or used already (`code_used`), field `code`, or the body is not valid (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["SecondFactorRefused"];
            503: components["responses"]["Unavailable"];
        };
    };
    confirmTwoFactor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TwoFactorCode"];
            };
        };
        responses: {
            /** @description 2FA is on. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecoveryCodes"];
                };
            };
            /** @description The code is missing (reason `code_required`), wrong (`code_invalid`) or used already (`code_used`), field `code`, or the body is not valid (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    changeEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailChange"];
            };
        };
        responses: {
            /** @description The link is on its way. */
            202: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PendingEmail"];
                };
            };
            /** @description The address is missing or not valid (reason `email_required` or `email_invalid`) or is the account's already (reason `email_unchanged`), field `email`. The current password is missing (reason `current_password_required`) or wrong (reason `wrong_password`), field `current_password`, or the body is not valid (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description Another account uses the address (code `conflict`, reason `email_taken`, field `email`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Live sessions, most recently used first. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    endOtherSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many sessions were signed out. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionsEnded"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    endSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Session ID, from the list. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No live session of the caller's with this ID (code `not_found`, reason `session_not_found`). */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Members, oldest first. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description User ID. */
                user: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description Forbidden (code `forbidden`): members other than owners and admins may only remove themselves; only owners remove owners. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            /** @description The last owner cannot leave (code `conflict`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description User ID. */
                user: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RoleRequest"];
            };
        };
        responses: {
            /** @description The member with the new role. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            /** @description Forbidden (code `forbidden`): only owners and admins change roles, and only owners make owners or change an owner's role. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            /** @description The workspace would be left without an owner (code `conflict`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getOpenAPI: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3 document of this API. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            429: components["responses"]["RateLimited"];
        };
    };
    moderationQueue: {
        parameters: {
            query?: {
                /** @description Which links (default `flagged`). */
                state?: "pending" | "passed" | "flagged" | "banned" | "appealed";
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page; opaque. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the queue. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationQueuePage"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is neither a moderator nor an operator, or is an API key (code `forbidden`); or a cookie-authenticated change came without a matching `X-CSRF-Token` header. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    moderationCounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationCounts"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The caller is neither a moderator nor an operator, or is an API key (code `forbidden`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    moderationLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Link ID (of any workspace). */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link's file. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModerationLinkFile"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The caller is neither a moderator nor an operator, or is an API key (code `forbidden`); or a cookie-authenticated change came without a matching `X-CSRF-Token` header. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    moderationDecide: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Link ID (of any workspace). */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecisionRequest"];
            };
        };
        responses: {
            /** @description The link after the decision, and the decision. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DecisionResult"];
                };
            };
            /** @description Unknown action, an unknown reason (`reason_unknown`), `other` without `reason_text` (`reason_text_required`), a note longer than 2000 characters or words longer than 500 (`reason_text_too_long`), or a body that is not the JSON object described (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The caller is neither a moderator nor an operator, or is an API key (code `forbidden`); or a cookie-authenticated change came without a matching `X-CSRF-Token` header. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            /** @description `keep_ban` of a link that is not banned (code `conflict`, reason `link_not_banned`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    moderationRequestReview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Link ID (of any workspace). */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The review is due. */
            202: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewRequested"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The caller is neither a moderator nor an operator, or is an API key (code `forbidden`); or a cookie-authenticated change came without a matching `X-CSRF-Token` header. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    moderationScreenshot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Review ID. */
                id: number;
                /** @description Visitor profile. */
                profile: "desktop" | "mobile" | "wechat";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The screenshot. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The caller is neither a moderator nor an operator, or is an API key (code `forbidden`); or a cookie-authenticated change came without a matching `X-CSRF-Token` header. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such review, or no screenshot of that profile (code `not_found`). */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    moderationDomains: {
        parameters: {
            query?: {
                /** @description `banned`, `held` or `cleared`; banned and held when absent. */
                state?: "banned" | "held" | "cleared";
                limit?: number;
                /** @description `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of domains. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["DomainEntry"][];
                        /** @description The cursor of the next page; empty on the last. */
                        next_cursor: string;
                    };
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is neither a moderator nor an operator, or is an API key (code `forbidden`); or a cookie-authenticated change came without a matching `X-CSRF-Token` header. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    moderationBanDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A registrable domain (public suffix list, private section included): `example.com`, `alice.github.io`; not `www.example.com` nor `github.io` (400, reason `hostname_invalid`). */
                domain: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DomainBanRequest"];
            };
        };
        responses: {
            /** @description The domain's decision now. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainDecision"];
                };
            };
            /** @description A domain that is not registrable (`hostname_invalid`), a category that is not one of the standard reasons (`category_unknown`), a note longer than 2000 characters (`text_length`), or a body that is not the JSON object described (code `invalid`). */
            400: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The caller is neither a moderator nor an operator, or is an API key (code `forbidden`); or a cookie-authenticated change came without a matching `X-CSRF-Token` header. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    moderationClearDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A registrable domain (public suffix list, private section included): `example.com`, `alice.github.io`; not `www.example.com` nor `github.io` (400, reason `hostname_invalid`). */
                domain: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DomainDecisionRequest"];
            };
        };
        responses: {
            /** @description The domain's decision now. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainDecision"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            /** @description The caller is neither a moderator nor an operator, or is an API key (code `forbidden`); or a cookie-authenticated change came without a matching `X-CSRF-Token` header. */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plan. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanStatus"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    startTrial: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace on the trial, with its end; with billing on (`STRIPE_SECRET_KEY`), the Stripe Checkout page of the trial's one-off payment instead, whose success starts the trial. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrialWorkspace"] | components["schemas"]["PaymentPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description The workspace had its trial already (code `trial_used`), or is on a paid plan (code `conflict`). */
            409: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plans. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanList"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getLinkQR: {
        parameters: {
            query?: {
                /** @description Image format. */
                format?: "png" | "svg";
                /** @description Width and height in pixels. */
                size?: number;
                /** @description Colour of the dark modules, RRGGBB. It must be darker than `bg`, with a contrast of at least 4.5:1 (else 400 `qr_contrast_low`). */
                fg?: string;
                /** @description Background colour, RRGGBB. */
                bg?: string;
                /** @description Error correction level, in either case. Empty or left out, M; always H with a logo. */
                ec?: "" | "L" | "M" | "Q" | "H" | "l" | "m" | "q" | "h";
                /** @description 1 (or true) draws the workspace's logo (`PUT …/logo`) in the middle, over about 5% of the code; 404 `logo_missing` without one. 0, false or empty draws none. */
                logo?: "" | "0" | "1" | "false" | "true";
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The QR code. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/svg+xml": string;
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["QRRateLimited"];
            503: components["responses"]["ImageBusy"];
        };
    };
    listSCIMTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tokens, newest first, and the workspace's SCIM base URL. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SCIMTokenList"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    createSCIMToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SCIMTokenRequest"];
            };
        };
        responses: {
            /** @description The token, with its secret `token`, shown this once; only its SHA-256 is kept. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewSCIMToken"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteSCIMToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description SCIM token ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSCIMRoles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The owner's mapping, by lower-case group name. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SCIMRoles"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    putSCIMRoles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SCIMRoles"];
            };
        };
        responses: {
            /** @description The mapping as kept. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SCIMRoles"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listMemberSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description The member's user ID. */
                user: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Live sessions, most recently renewed first. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberSessionList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Forbidden (code `forbidden` or `plan_required`): the plan lacks `sso` (`plan_required`), an admin asked about an owner (`owner_required`), or an API key called (`api_key_not_allowed`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such workspace of the caller's, or the user is not a member of it (code `not_found`, reasons `workspace_not_found`, `member_not_found`). */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    endMemberSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description The member's user ID. */
                user: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many sessions were signed out. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionsEnded"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Forbidden (code `forbidden` or `plan_required`): the plan lacks `sso` (`plan_required`), an admin asked about an owner (`owner_required`), or an API key called (`api_key_not_allowed`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such workspace of the caller's, or the user is not a member of it (code `not_found`, reasons `workspace_not_found`, `member_not_found`). */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    endMemberSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description The member's user ID. */
                user: number;
                /** @description Session ID, from the member's list. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description Forbidden (code `forbidden` or `plan_required`): the plan lacks `sso` (`plan_required`), an admin asked about an owner (`owner_required`), or an API key called (`api_key_not_allowed`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such workspace, member, or live session of the member's (code `not_found`, reasons `workspace_not_found`, `member_not_found`, `session_not_found`). */
            404: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    endWorkspaceSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many sessions of how many people were signed out. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceSessionsEnded"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Forbidden (code `forbidden` or `plan_required`): the plan lacks `sso` (`plan_required`), an admin asked about an owner (`owner_required`), or an API key called (`api_key_not_allowed`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getSSO: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SSOSettings"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Forbidden: only the workspace's owner (API keys never); or the plan lacks `sso` (code `plan_required`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    putSSO: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SSORequest"];
            };
        };
        responses: {
            /** @description The settings as stored. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SSOSettings"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            /** @description Forbidden: only the workspace's owner (API keys never); or the plan lacks `sso` (code `plan_required`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteSSO: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            /** @description Forbidden: only the workspace's owner (API keys never); or the plan lacks `sso` (code `plan_required`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    verifySSO: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings, proven or not yet. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SSOSettings"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description Forbidden: only the workspace's owner (API keys never); or the plan lacks `sso` (code `plan_required`). */
            403: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    startSSO: {
        parameters: {
            query: {
                /** @description The address to sign in. */
                email: string;
                /** @description The web app's page to land on after signing in: a path under `/app/` on this site, else `/app/`. */
                return_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider (or, for a browser, back to the sign-in page with the error). */
            302: {
                headers: {
                    /** @description `sl_sso` (OpenID Connect) or `sl_saml` (SAML): the state of this sign-in. */
                    "Set-Cookie"?: string;
                    /** @description Where the browser goes next. */
                    Location?: string;
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Invalid"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    finishSSO: {
        parameters: {
            query?: {
                state?: string;
                code?: string;
                /** @description The provider's refusal; the sign-in fails (`sso_failed`). */
                error?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in, into the web app (or, for a browser, back to the sign-in page with the error). */
            302: {
                headers: {
                    /** @description The session cookies (see POST /auth/login), and `sl_sso` cleared. */
                    "Set-Cookie"?: string;
                    /** @description Where the browser goes next. */
                    Location?: string;
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    samlMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metadata. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/samlmetadata+xml": string;
                };
            };
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
        };
    };
    samlACS: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description The provider's Response, base64. */
                    SAMLResponse?: string;
                    /** @description The sign-in's state, as sent to the provider. */
                    RelayState?: string;
                };
            };
        };
        responses: {
            /** @description Signed in, into the web app (or, for a browser, back to the sign-in page with the error). */
            302: {
                headers: {
                    /** @description The session cookies (see POST /auth/login), and `sl_saml` cleared. */
                    "Set-Cookie"?: string;
                    /** @description Where the browser goes next. */
                    Location?: string;
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
        };
    };
    getLinkStats: {
        parameters: {
            query?: {
                /** @description Start of the range: an RFC 3339 time, or a date (`YYYY-MM-DD`) meaning its midnight in `tz`. Default: midnight in `tz` of the day 89 days before the last day of the range (90 days, that day included). */
                from?: string;
                /** @description End of the range, not included: an RFC 3339 time, or a date meaning the end of that day in `tz` (the next midnight). Default: now. From must be before to, and a range spans at most 400 days (400 `invalid` otherwise). */
                to?: string;
                /** @description IANA time zone of the days and of the times answered, such as `Asia/Shanghai`; UTC when absent. An unknown zone is a 400 `invalid`. */
                tz?: string;
                /** @description Filter: only the visits with this `country` (a country's ISO 3166-1 code of two capital letters, such as `DE`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                country?: string;
                /** @description Filter: only the visits with this `device` (`ios`, `android`, `desktop` or `other`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                device?: string;
                /** @description Filter: only the visits with this `os` (an operating system as the `os` breakdown names it, such as `iOS`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                os?: string;
                /** @description Filter: only the visits with this `browser` (a browser as the `browser` breakdown names it, such as `Chrome Mobile`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                browser?: string;
                /** @description Filter: only the visits with this `referrer` (a referring page's host, such as `t.co`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                referrer?: string;
                /** @description Filter: only the visits with this `in_app` (an in-app browser as the `in_app` breakdown names it, such as `WeChat`.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                in_app?: string;
                /** @description Filter: only the visits with this `utm_source` (a `utm_source` value.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                utm_source?: string;
                /** @description Filter: only the visits with this `utm_medium` (a `utm_medium` value.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                utm_medium?: string;
                /** @description Filter: only the visits with this `utm_campaign` (a `utm_campaign` value.) are counted; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                utm_campaign?: string;
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Link ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The statistics. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkStats"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    exportLinks: {
        parameters: {
            query?: {
                /** @description Text searched in URL, code and title (at most 200 characters). */
                q?: string;
                /** @description Only links in this status; `expired` is the links whose expiry has passed, whatever their status. Another value answers 400 `value_invalid`. */
                status?: "active" | "disabled" | "banned" | "held" | "expired";
                /** @description Only links on this domain: the service's short domain or a verified custom domain of the workspace, by host name (400 `invalid` for any other). Absent or empty: every domain. */
                domain?: string;
                /** @description Only links carrying the tag of this name, in any case (`GET …/tags`). Repeated (up to 10 times), only links carrying every one of them. A name the workspace has no tag of narrows to none (the header row alone). */
                tag?: string[];
                /** @description Only links whose destination's checks made them `broken` or `ok`, as the list reads it. Another value answers 400 `value_invalid`. */
                health?: "ok" | "broken";
                /** @description `all` (default here): every link; `false`: links not archived, as the list shows by default; `true`: archived links only. Anything else answers 400 `value_invalid`. */
                archived?: "false" | "true" | "all";
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The links as CSV (`Content-Disposition: attachment`). */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    exportVisits: {
        parameters: {
            query?: {
                /** @description A link's ID; only its visits are exported (400 `invalid` when not an ID). */
                link?: number;
                /** @description Start of the range: an RFC 3339 time, or a date (`YYYY-MM-DD`) meaning its midnight in `tz`. Default: midnight in `tz` of the day 29 days before the last day of the range (30 days, that day included). */
                from?: string;
                /** @description End of the range, not included: an RFC 3339 time, or a date meaning the end of that day in `tz` (the next midnight). Default: now. From must be before to, and a range spans at most 400 days (400 `invalid` otherwise). */
                to?: string;
                /** @description IANA time zone of the days and of the times answered, such as `Asia/Shanghai`; UTC when absent. An unknown zone is a 400 `invalid`. */
                tz?: string;
                /** @description Narrows to the links carrying the tag of this name, in any case (`GET …/tags`); a name the workspace has no tag of narrows to none. */
                tag?: string;
                /** @description Filter: only the visits with this `country` (a country's ISO 3166-1 code of two capital letters, such as `DE`.) are exported, of the link named by `link` only; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                country?: string;
                /** @description Filter: only the visits with this `device` (`ios`, `android`, `desktop` or `other`.) are exported, of the link named by `link` only; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                device?: string;
                /** @description Filter: only the visits with this `os` (an operating system as the `os` breakdown names it, such as `iOS`.) are exported, of the link named by `link` only; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                os?: string;
                /** @description Filter: only the visits with this `browser` (a browser as the `browser` breakdown names it, such as `Chrome Mobile`.) are exported, of the link named by `link` only; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                browser?: string;
                /** @description Filter: only the visits with this `referrer` (a referring page's host, such as `t.co`.) are exported, of the link named by `link` only; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                referrer?: string;
                /** @description Filter: only the visits with this `in_app` (an in-app browser as the `in_app` breakdown names it, such as `WeChat`.) are exported, of the link named by `link` only; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                in_app?: string;
                /** @description Filter: only the visits with this `utm_source` (a `utm_source` value.) are exported, of the link named by `link` only; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                utm_source?: string;
                /** @description Filter: only the visits with this `utm_medium` (a `utm_medium` value.) are exported, of the link named by `link` only; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                utm_medium?: string;
                /** @description Filter: only the visits with this `utm_campaign` (a `utm_campaign` value.) are exported, of the link named by `link` only; filters of several breakdowns combine (every one must match). At most 253 bytes, once; 400 `invalid` (`filter_invalid`) otherwise. */
                utm_campaign?: string;
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The visits as CSV (`Content-Disposition: attachment`). */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWorkspaceStats: {
        parameters: {
            query?: {
                /** @description First day of the range: a date (`YYYY-MM-DD`) in `tz`, or an RFC 3339 time (its day). Default: 13 days before the last day. */
                from?: string;
                /** @description Last day of the range, included: a date in `tz`, or an RFC 3339 time (the day of the instant before it). Default: today. A range spans at most 400 days (400 `invalid`). */
                to?: string;
                /** @description IANA time zone of the days and of the times answered, such as `Asia/Shanghai`; UTC when absent. An unknown zone is a 400 `invalid`. */
                tz?: string;
                /** @description Narrows to the links carrying the tag of this name, in any case (`GET …/tags`); a name the workspace has no tag of narrows to none. */
                tag?: string;
            };
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dashboard. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listTags: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tags. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    createTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TagInput"];
            };
        };
        responses: {
            /** @description The tag. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tag"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Tag ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Tag ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TagPatch"];
            };
        };
        responses: {
            /** @description The tag. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tag"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listUTMTemplates: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The templates. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UTMTemplateList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    createUTMTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UTMTemplateInput"];
            };
        };
        responses: {
            /** @description The template. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UTMTemplate"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteUTMTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Template ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every webhook of the workspace, oldest first; never their secrets. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookRequest"];
            };
        };
        responses: {
            /** @description The webhook, with its signing `secret` (`whsec_` and base64), shown this once. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Webhook ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook, without its secret. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Webhook ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Webhook ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPatch"];
            };
        };
        responses: {
            /** @description The webhook as edited. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Webhook ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deliveries with their last attempt. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Webhook ID. */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test delivery as recorded (`delivered` or `failed`, with the response code). */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTest"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Webhook ID. */
                id: number;
                /** @description Delivery ID. */
                delivery: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, its request and its answer. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryDetail"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    resendWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
                /** @description Webhook ID. */
                id: number;
                /** @description The ID of the delivery to send again. */
                delivery: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new delivery as recorded (`delivered` or `failed`), with its request and answer. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTest"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWorkspaces: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user's workspaces with their role in each; for an API key, its own workspace. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    createWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NameRequest"];
            };
        };
        responses: {
            /** @description Created, on the free plan, owned by the caller. */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace, with the caller's role. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceUpdate"];
            };
        };
        responses: {
            /** @description The renamed workspace. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workspace"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
    transferWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Workspace ID. */
                workspace: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransferRequest"];
            };
        };
        responses: {
            /** @description The new owner's membership. */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["Invalid"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["RateLimited"];
            503: components["responses"]["Unavailable"];
        };
    };
}
