// Generated from the running service's /api/openapi.json by openapi-typescript: do not edit.
// Regenerate with `npm run console:api` (test/console/api-types.test.ts fails while it differs).
export interface paths {
    "/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth protected-resource metadata (RFC 9728) for the REST API */
        get: operations["getWellKnownOauthProtectedResource"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth protected-resource metadata (RFC 9728) for the MCP endpoint */
        get: operations["getWellKnownOauthProtectedResourceMcp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/backup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A consistent snapshot of the embedded store (gzip tarball of the PGlite data directory), for `context-hub restore`; 409 backup_not_embedded on PostgreSQL (use pg_dump) */
        post: operations["postApiAdminBackup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The delivery log, newest first: each message with every attempt (status, HTTP code, latency, error, answer) */
        get: operations["getApiAlertsDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery with its attempts */
        get: operations["getApiAlertsDeliveriesId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a dead-lettered delivery again (same id, a fresh budget of attempts) */
        post: operations["postApiAlertsDeliveriesIdRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a project's alert destinations by name (secret names only, never values) */
        get: operations["getApiAlertsDestinations"];
        put?: never;
        /** Create a destination (webhook, slack, teams, email, pagerduty); a webhook’s signing secret is shown once */
        post: operations["postApiAlertsDestinations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/destinations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one alert destination */
        get: operations["getApiAlertsDestinationsId"];
        put?: never;
        post?: never;
        /** Delete a destination no rule uses (409 names the rules that do) */
        delete: operations["deleteApiAlertsDestinationsId"];
        options?: never;
        head?: never;
        /** Change a destination: name, config (whole), secrets (merged), enabled, or rotate a webhook secret */
        patch: operations["patchApiAlertsDestinationsId"];
        trace?: never;
    };
    "/api/alerts/destinations/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test message now and answer the outcome (a failed send is a 200 describing it) */
        post: operations["postApiAlertsDestinationsIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/mutes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a project's mutes, latest end first (active says whether one silences today) */
        get: operations["getApiAlertsMutes"];
        put?: never;
        /** Mute a metric and/or channel until a day (for one rule or all) */
        post: operations["postApiAlertsMutes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/mutes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End a mute now */
        delete: operations["deleteApiAlertsMutesId"];
        options?: never;
        head?: never;
        /** Change when a mute ends, or its reason */
        patch: operations["patchApiAlertsMutesId"];
        trace?: never;
    };
    "/api/alerts/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a project's alert rules by name */
        get: operations["getApiAlertsRules"];
        put?: never;
        /** Create an alert rule: sources, filters, destinations, quiet hours */
        post: operations["postApiAlertsRules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one alert rule */
        get: operations["getApiAlertsRulesId"];
        put?: never;
        post?: never;
        /** Delete an alert rule (its delivery log stays) */
        delete: operations["deleteApiAlertsRulesId"];
        options?: never;
        head?: never;
        /** Change an alert rule (filters and destinations are replaced whole; quiet_hours null removes them) */
        patch: operations["patchApiAlertsRulesId"];
        trace?: never;
    };
    "/api/anomalies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Anomalies (runs of consecutive fired days of one series, with stable ids) with a fired day from since (default 30 days ago) to to (default no end), newest first, paginated, with the peak day's baseline and correlated context events; date or anomaly_id widens the window to what a link names and answers it as focus */
        get: operations["getApiAnomalies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anomalies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One anomaly by id (anom_…) with its whole triage and every evaluated day from its first to its last fired day */
        get: operations["getApiAnomaliesId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Triage an anomaly: status (open → acknowledged → resolved, or expected / false_positive; a closed one only reopens), note, assignee (a member), context_event_id (an event of its project); null clears a field */
        patch: operations["patchApiAnomaliesId"];
        trace?: never;
    };
    "/api/anomalies/{id}/explain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Why an anomaly fired: each channel (of the total) or campaign (of a channel) that moved it, rate and mix effects for ratio KPIs, the context events of its days, the data-quality checks of the runs that wrote them and the Skills about its metric */
        get: operations["getApiAnomaliesIdExplain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anomalies/{id}/triage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An anomaly's triage: status, note, assignee, linked context event and the statuses it may move to */
        get: operations["getApiAnomaliesIdTriage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anomalies/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-evaluate a date range (default all dates with KPIs) with the current settings; no body */
        post: operations["postApiAnomaliesEvaluate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anomalies/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Per metric and channel over the last 90 days: anomalies fired, triaged, false positives, confirmed and precision */
        get: operations["getApiAnomaliesFeedback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anomalies/feedback/suggestions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Replays the last 90 days with candidate settings (threshold, seasonality, volume guard) through the evaluator, writing nothing: false positives each would silence and confirmed anomalies it would still fire */
        get: operations["getApiAnomaliesFeedbackSuggestions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anomalies/series": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One metric's daily values on a channel with the trailing baseline each day was compared to */
        get: operations["getApiAnomaliesSeries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anomalies/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A project's anomaly settings: what is stored and the effective rule per metric */
        get: operations["getApiAnomaliesSettings"];
        /** Replace a project's anomaly settings (window, seasonality, threshold, training size, minimum changes, direction, per-metric overrides) */
        put: operations["putApiAnomaliesSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/nango/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Nango's auth webhooks, signed with X-Nango-Hmac-Sha256 (public: the signature is the authentication; anything unsigned is a 401 and changes nothing) */
        post: operations["postApiConnectorsNangoWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/console/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the console needs to sign in: the service's auth mode and, in oauth mode, issuer and client */
        get: operations["getApiConsoleConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/context/business-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List business links whose source is live */
        get: operations["getApiContextBusinessLinks"];
        put?: never;
        /** Link a Knowledge sheet or Skill to a business key (duplicate: 409) */
        post: operations["postApiContextBusinessLinks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/context/business-links/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a business link */
        delete: operations["deleteApiContextBusinessLinksId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/context/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a project's context events, newest event_date first (optionally only those active on a day) */
        get: operations["getApiContextEvents"];
        put?: never;
        /** Record a business context event (release, promotion, outage…) for a project */
        post: operations["postApiContextEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/context/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one context event */
        get: operations["getApiContextEventsId"];
        put?: never;
        post?: never;
        /** Delete a context event */
        delete: operations["deleteApiContextEventsId"];
        options?: never;
        head?: never;
        /** Change a context event (end_date: null clears it) */
        patch: operations["patchApiContextEventsId"];
        trace?: never;
    };
    "/api/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create or rotate a connection (secrets go in, never out) */
        post: operations["postApiCredentials"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/credentials/connect-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A Nango connect link (POST /connect/sessions) for a connection whose credentials Nango holds */
        post: operations["postApiCredentialsConnectLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/credentials/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a project's connections by connection_ref_id, paginated: provider, status, last verification, integration link (never secrets) */
        get: operations["getApiCredentialsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/credentials/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a token check and a connectivity test now; a failed check is still a 200 answer describing it */
        post: operations["postApiCredentialsVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dq/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Data-quality health (pass rate, freshness lag per datastream, open failures) and the check ledger, newest first, paginated */
        get: operations["getApiDqStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A project's datastreams and report definitions */
        get: operations["getApiFlows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flows/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a run of a datastream now (no body needed); answers the run id */
        post: operations["postApiFlowsIdRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flows/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs of a project (optionally one datastream), newest first */
        get: operations["getApiFlowsRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flows/upsert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create or update a datastream or report definition (idempotent on project and name); answers the stored object */
        post: operations["postApiFlowsUpsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/insights": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Daily insights of a project: one date, or the newest first (record, Markdown narrative, version, inputs hash) */
        get: operations["getApiInsights"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the live Knowledge sheets of a project (by topic_id) */
        get: operations["getApiKnowledge"];
        put?: never;
        /** Add a Knowledge sheet, or a new version of a topic_id (201 for version 1, else 200; 202 when proposed) */
        post: operations["postApiKnowledge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/{topic_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a Knowledge sheet (current version, or ?version=N) */
        get: operations["getApiKnowledgeTopicId"];
        /** Change a Knowledge sheet: writes its next version (202 and a proposal when the project reviews) */
        put: operations["putApiKnowledgeTopicId"];
        post?: never;
        /** Delete a Knowledge sheet: gone from search and lists; versions stay readable to admins */
        delete: operations["deleteApiKnowledgeTopicId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/{topic_id}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What changed between two versions: unified diff of body_md, and title/owner */
        get: operations["getApiKnowledgeTopicIdDiff"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/{topic_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore a version: writes that version's content as the next version (history is never rewritten; 202 and a proposal when the project reviews) */
        post: operations["postApiKnowledgeTopicIdRestore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/{topic_id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A Knowledge sheet's version history, oldest first, paginated */
        get: operations["getApiKnowledgeTopicIdVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/money/rates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** ECB euro reference rates in any base, for a day (weekends and holidays answer the last publication) */
        get: operations["getApiMoneyRates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/money/rates/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch FX_RATES_URL now and add the days the store does not have (no body) */
        post: operations["postApiMoneyRatesRefresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/org/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit log of every write, newest first */
        get: operations["getApiOrgAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/org/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the caller is: subject, organization role, project grants, token scopes */
        get: operations["getApiOrgMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/org/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List organization members with their roles and grants */
        get: operations["getApiOrgMembers"];
        put?: never;
        /** Add a member (subject = the JWT sub) with a role and optional project grants */
        post: operations["postApiOrgMembers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/org/members/{subject}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one member */
        get: operations["getApiOrgMembersSubject"];
        put?: never;
        post?: never;
        /** Remove a member and its grants */
        delete: operations["deleteApiOrgMembersSubject"];
        options?: never;
        head?: never;
        /** Change a member's role or email (owner role changes need an owner) */
        patch: operations["patchApiOrgMembersSubject"];
        trace?: never;
    };
    "/api/org/members/{subject}/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A member's project grants */
        get: operations["getApiOrgMembersSubjectGrants"];
        /** Replace a member's project grants */
        put: operations["putApiOrgMembersSubjectGrants"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/org/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Organization settings, entitlement limits and member access roles */
        get: operations["getApiOrgSettings"];
        /** Change organization settings and limits (owner) */
        put: operations["putApiOrgSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the projects you can see */
        get: operations["getApiProjects"];
        put?: never;
        /** Create a project */
        post: operations["postApiProjects"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one project */
        get: operations["getApiProjectsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a project's name, reporting currency, timezone or agent_writes policy */
        patch: operations["patchApiProjectsId"];
        trace?: never;
    };
    "/api/projects/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The hub as files (tar.gz): skills/<name>/SKILL.md, knowledge/<topic_id>.md, taxonomy.yaml (context as code; the same hub always gives the same bytes) */
        get: operations["getApiProjectsIdExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/projects/{id}/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Apply a folder of files (tar.gz body, the export layout): new and changed objects become new versions, unchanged ones stay; ?dry_run=true plans only, ?prune=true deletes what the folder lacks; any bad file refuses it all (400 import_invalid, every problem with file:line) */
        post: operations["postApiProjectsIdImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proposals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A project's proposals, newest first (reviewers see all; others their own), paginated */
        get: operations["getApiProposals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proposals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a proposal, with the diff of its body against its base and against the current version */
        get: operations["getApiProposalsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proposals/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a proposal (optionally with edits): publishes it as the next version; 409 proposal_stale */
        post: operations["postApiProposalsIdApprove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proposals/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a proposal with a comment its author reads */
        post: operations["postApiProposalsIdReject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proposals/{id}/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Withdraw your own pending proposal */
        post: operations["postApiProposalsIdWithdraw"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the built-in providers with their description, config_schema and secrets_schema (JSON Schema), to build a new-connection form */
        get: operations["getApiProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reports/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Run a saved report definition by name (bounded rows) */
        get: operations["getApiReportsRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Relevance-ranked search over Skills, Knowledge and business keys (what search_context answers); explain=true (editors and up) adds score parts */
        get: operations["getApiSearch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the live skills of a project (by name) */
        get: operations["getApiSkills"];
        put?: never;
        /** Add a skill, or a new version of an existing name (201 for version 1, else 200; 202 when proposed) */
        post: operations["postApiSkills"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a skill (current version, or ?version=N) */
        get: operations["getApiSkillsName"];
        /** Change a skill: writes its next version (202 and a proposal when the project reviews writes) */
        put: operations["putApiSkillsName"];
        post?: never;
        /** Delete a skill: gone from search and lists; its versions stay readable to admins */
        delete: operations["deleteApiSkillsName"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/{name}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What changed between two versions: unified diff of body_md, steps, acceptance, references, fields */
        get: operations["getApiSkillsNameDiff"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/{name}/prompt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How the skill appears to you as an MCP prompt: its name, title and arguments */
        get: operations["getApiSkillsNamePrompt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/{name}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore a version: writes that version's content as the next version (history is never rewritten; 202 and a proposal when the project reviews) */
        post: operations["postApiSkillsNameRestore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/{name}/SKILL.md": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export a skill as a SKILL.md file (Agent Skills format) */
        get: operations["getApiSkillsNameSKILLMd"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/{name}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A skill's version history, oldest first, paginated */
        get: operations["getApiSkillsNameVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a SKILL.md file (text/markdown body) as the next version of the skill it names */
        post: operations["postApiSkillsImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/skills/parse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Parse a draft body as a save would (steps, acceptance, [[key]] references), storing nothing */
        post: operations["postApiSkillsParse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/taxonomy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's business taxonomy as a tree */
        get: operations["getApiTaxonomy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/taxonomy/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List business keys (by key) */
        get: operations["getApiTaxonomyKeys"];
        put?: never;
        /** Create a business key (its parent must exist) */
        post: operations["postApiTaxonomyKeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/taxonomy/keys/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a business key */
        get: operations["getApiTaxonomyKeysKey"];
        /** Change a business key (label, description, parent, synonyms); a parent cycle is a 400 */
        put: operations["putApiTaxonomyKeysKey"];
        post?: never;
        /** Delete a business key without children (its links go with it) */
        delete: operations["deleteApiTaxonomyKeysKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process serves HTTP */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: storage reachable and every migration applied */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
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
        getApiTaxonomy_response_schema0: {
            children: components["schemas"]["getApiTaxonomy_response_schema0"][];
            key: string;
            label: string;
        };
        Problem: {
            code: string;
            detail: string;
            errors?: {
                message: string;
                path: string;
            }[];
            request_id?: string;
            status: number;
            title: string;
            type: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getWellKnownOauthProtectedResource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWellKnownOauthProtectedResourceMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiAdminBackup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAlertsDeliveries: {
        parameters: {
            query: {
                cursor?: string;
                destination_id?: string;
                limit?: number;
                project_id: string;
                rule_id?: string;
                status?: "held" | "pending" | "delivering" | "delivered" | "failed" | "dead";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: {
                            attempt_count: number;
                            attempts: {
                                attempt: number;
                                error: string | null;
                                finished_at: string | null;
                                http_status: number | null;
                                latency_ms: number | null;
                                /**
                                 * @description interrupted: the process delivering it stopped mid-attempt (another process retries it).
                                 * @enum {string}
                                 */
                                outcome: "interrupted" | "delivered" | "retry" | "failed" | "dead";
                                /** @description At most 500 bytes of the receiver’s answer. */
                                response_excerpt: string | null;
                                retry_at: string | null;
                                started_at: string;
                            }[];
                            created_at: string;
                            deliver_after: string;
                            delivered_at: string | null;
                            destination: {
                                id: string;
                                kind: string;
                                name: string;
                            };
                            event_type: string;
                            /** @description The message id: the webhook-id a webhook receiver sees on every attempt. */
                            id: string;
                            item_count: number;
                            last_error: string | null;
                            max_attempts: number;
                            project_id: string;
                            rule: {
                                id: string | null;
                                name: string;
                            };
                            run_id: string | null;
                            source: string;
                            /** @enum {string} */
                            status: "held" | "pending" | "delivering" | "delivered" | "failed" | "dead";
                            title: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAlertsDeliveriesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        attempt_count: number;
                        attempts: {
                            attempt: number;
                            error: string | null;
                            finished_at: string | null;
                            http_status: number | null;
                            latency_ms: number | null;
                            /**
                             * @description interrupted: the process delivering it stopped mid-attempt (another process retries it).
                             * @enum {string}
                             */
                            outcome: "interrupted" | "delivered" | "retry" | "failed" | "dead";
                            /** @description At most 500 bytes of the receiver’s answer. */
                            response_excerpt: string | null;
                            retry_at: string | null;
                            started_at: string;
                        }[];
                        created_at: string;
                        deliver_after: string;
                        delivered_at: string | null;
                        destination: {
                            id: string;
                            kind: string;
                            name: string;
                        };
                        event_type: string;
                        /** @description The message id: the webhook-id a webhook receiver sees on every attempt. */
                        id: string;
                        item_count: number;
                        last_error: string | null;
                        max_attempts: number;
                        project_id: string;
                        rule: {
                            id: string | null;
                            name: string;
                        };
                        run_id: string | null;
                        source: string;
                        /** @enum {string} */
                        status: "held" | "pending" | "delivering" | "delivered" | "failed" | "dead";
                        title: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiAlertsDeliveriesIdRetry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        attempt_count: number;
                        attempts: {
                            attempt: number;
                            error: string | null;
                            finished_at: string | null;
                            http_status: number | null;
                            latency_ms: number | null;
                            /**
                             * @description interrupted: the process delivering it stopped mid-attempt (another process retries it).
                             * @enum {string}
                             */
                            outcome: "interrupted" | "delivered" | "retry" | "failed" | "dead";
                            /** @description At most 500 bytes of the receiver’s answer. */
                            response_excerpt: string | null;
                            retry_at: string | null;
                            started_at: string;
                        }[];
                        created_at: string;
                        deliver_after: string;
                        delivered_at: string | null;
                        destination: {
                            id: string;
                            kind: string;
                            name: string;
                        };
                        event_type: string;
                        /** @description The message id: the webhook-id a webhook receiver sees on every attempt. */
                        id: string;
                        item_count: number;
                        last_error: string | null;
                        max_attempts: number;
                        project_id: string;
                        rule: {
                            id: string | null;
                            name: string;
                        };
                        run_id: string | null;
                        source: string;
                        /** @enum {string} */
                        status: "held" | "pending" | "delivering" | "delivered" | "failed" | "dead";
                        title: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAlertsDestinations: {
        parameters: {
            query: {
                cursor?: string;
                limit?: number;
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        destinations: {
                            config: {
                                [key: string]: unknown;
                            };
                            created_at: string;
                            created_by: string;
                            enabled: boolean;
                            id: string;
                            /** @enum {string} */
                            kind: "webhook" | "slack" | "teams" | "email" | "pagerduty";
                            last_test: {
                                at: string;
                                error: string | null;
                                http_status: number | null;
                                latency_ms: number;
                                ok: boolean;
                            } | null;
                            name: string;
                            project_id: string;
                            rules: {
                                id: string;
                                name: string;
                            }[];
                            /** @description Names of the stored secrets; values are never returned. */
                            secret_fields: string[];
                            /** @description webhook, on create and rotation only: the whsec_… secret receivers verify with. Shown once. */
                            signing_secret?: string;
                            /** @description The host messages go to (not the URL: that is a credential). */
                            target: string | null;
                            updated_at: string;
                            updated_by: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiAlertsDestinations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Not secret. email: {host, port, secure, require_tls, from, to[]}; pagerduty: {events_url} (default https://events.pagerduty.com/v2/enqueue); webhook, slack, teams: {}.
                     * @default {}
                     */
                    config?: {
                        [key: string]: unknown;
                    };
                    /** @default true */
                    enabled?: boolean;
                    /** @enum {string} */
                    kind: "webhook" | "slack" | "teams" | "email" | "pagerduty";
                    name: string;
                    /** @description Project id (e.g. proj_marketing), or a console URL naming it. */
                    project_id: string;
                    /**
                     * @description Encrypted at rest, never returned. webhook, slack, teams: {url}; email: {user, password}; pagerduty: {routing_key}. A webhook signing secret (whsec_…) is generated and shown once.
                     * @default {}
                     */
                    secrets?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        config: {
                            [key: string]: unknown;
                        };
                        created_at: string;
                        created_by: string;
                        enabled: boolean;
                        id: string;
                        /** @enum {string} */
                        kind: "webhook" | "slack" | "teams" | "email" | "pagerduty";
                        last_test: {
                            at: string;
                            error: string | null;
                            http_status: number | null;
                            latency_ms: number;
                            ok: boolean;
                        } | null;
                        name: string;
                        project_id: string;
                        rules: {
                            id: string;
                            name: string;
                        }[];
                        /** @description Names of the stored secrets; values are never returned. */
                        secret_fields: string[];
                        /** @description webhook, on create and rotation only: the whsec_… secret receivers verify with. Shown once. */
                        signing_secret?: string;
                        /** @description The host messages go to (not the URL: that is a credential). */
                        target: string | null;
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAlertsDestinationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        config: {
                            [key: string]: unknown;
                        };
                        created_at: string;
                        created_by: string;
                        enabled: boolean;
                        id: string;
                        /** @enum {string} */
                        kind: "webhook" | "slack" | "teams" | "email" | "pagerduty";
                        last_test: {
                            at: string;
                            error: string | null;
                            http_status: number | null;
                            latency_ms: number;
                            ok: boolean;
                        } | null;
                        name: string;
                        project_id: string;
                        rules: {
                            id: string;
                            name: string;
                        }[];
                        /** @description Names of the stored secrets; values are never returned. */
                        secret_fields: string[];
                        /** @description webhook, on create and rotation only: the whsec_… secret receivers verify with. Shown once. */
                        signing_secret?: string;
                        /** @description The host messages go to (not the URL: that is a credential). */
                        target: string | null;
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteApiAlertsDestinationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success, no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchApiAlertsDestinationsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Replaces the whole configuration. */
                    config?: {
                        [key: string]: unknown;
                    };
                    enabled?: boolean;
                    name?: string;
                    /**
                     * @description webhook: a new whsec_… secret, shown once in this answer; the old one stops signing at once.
                     * @constant
                     */
                    rotate_signing_secret?: true;
                    /** @description Merged over the stored secrets: named keys replace, others stay. */
                    secrets?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        config: {
                            [key: string]: unknown;
                        };
                        created_at: string;
                        created_by: string;
                        enabled: boolean;
                        id: string;
                        /** @enum {string} */
                        kind: "webhook" | "slack" | "teams" | "email" | "pagerduty";
                        last_test: {
                            at: string;
                            error: string | null;
                            http_status: number | null;
                            latency_ms: number;
                            ok: boolean;
                        } | null;
                        name: string;
                        project_id: string;
                        rules: {
                            id: string;
                            name: string;
                        }[];
                        /** @description Names of the stored secrets; values are never returned. */
                        secret_fields: string[];
                        /** @description webhook, on create and rotation only: the whsec_… secret receivers verify with. Shown once. */
                        signing_secret?: string;
                        /** @description The host messages go to (not the URL: that is a credential). */
                        target: string | null;
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiAlertsDestinationsIdTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        at: string;
                        delivery_id: string;
                        error: string | null;
                        http_status: number | null;
                        latency_ms: number;
                        ok: boolean;
                        response_excerpt: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAlertsMutes: {
        parameters: {
            query: {
                cursor?: string;
                limit?: number;
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        mutes: {
                            /** @description Whether it silences today (project time zone). */
                            active: boolean;
                            channel: string | null;
                            created_at: string;
                            created_by: string;
                            id: string;
                            metric: string | null;
                            project_id: string;
                            reason: string;
                            rule_id: string | null;
                            until: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiAlertsMutes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    channel?: string;
                    /** @enum {string} */
                    metric?: "spend" | "revenue" | "conversions" | "clicks" | "impressions" | "roas" | "cpa" | "ctr" | "cvr";
                    /** @description Project id (e.g. proj_marketing), or a console URL naming it. */
                    project_id: string;
                    /** @default  */
                    reason?: string;
                    /** @description Only this rule (default: every rule of the project). */
                    rule_id?: string;
                    /**
                     * Format: date
                     * @description Last muted day (YYYY-MM-DD, project time zone), inclusive.
                     */
                    until: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether it silences today (project time zone). */
                        active: boolean;
                        channel: string | null;
                        created_at: string;
                        created_by: string;
                        id: string;
                        metric: string | null;
                        project_id: string;
                        reason: string;
                        rule_id: string | null;
                        until: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteApiAlertsMutesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success, no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchApiAlertsMutesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason?: string;
                    /** Format: date */
                    until?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether it silences today (project time zone). */
                        active: boolean;
                        channel: string | null;
                        created_at: string;
                        created_by: string;
                        id: string;
                        metric: string | null;
                        project_id: string;
                        reason: string;
                        rule_id: string | null;
                        until: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAlertsRules: {
        parameters: {
            query: {
                cursor?: string;
                limit?: number;
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        rules: {
                            created_at: string;
                            created_by: string;
                            destinations: {
                                id: string;
                                kind: string;
                                name: string;
                            }[];
                            enabled: boolean;
                            filters: {
                                /** @description Anomalies on these channels only (default: every channel). */
                                channels?: string[];
                                /**
                                 * @description spike, drop or both.
                                 * @default both
                                 * @enum {string}
                                 */
                                direction: "spike" | "drop" | "both";
                                /**
                                 * @description Whether anomalies of the project total (channel "_total") count.
                                 * @default true
                                 */
                                include_totals: boolean;
                                /** @description Anomalies of these metrics only (default: every metric). */
                                metrics?: ("spend" | "revenue" | "conversions" | "clicks" | "impressions" | "roas" | "cpa" | "ctr" | "cvr")[];
                                /** @description Anomalies with |z| at least this. */
                                min_abs_z?: number;
                                /** @description Anomalies with a score at least this; applies to anomalies that carry a score. */
                                min_score?: number;
                            };
                            id: string;
                            name: string;
                            on: ("anomaly" | "data_quality" | "run_failed" | "daily_insight")[];
                            project_id: string;
                            quiet_hours: {
                                from: string;
                                to: string;
                            } | null;
                            updated_at: string;
                            updated_by: string;
                        }[];
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiAlertsRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Destination ids of the same project. */
                    destinations: string[];
                    /** @default true */
                    enabled?: boolean;
                    /**
                     * @default {
                     *       "direction": "both",
                     *       "include_totals": true
                     *     }
                     */
                    filters?: {
                        /** @description Anomalies on these channels only (default: every channel). */
                        channels?: string[];
                        /**
                         * @description spike, drop or both.
                         * @default both
                         * @enum {string}
                         */
                        direction?: "spike" | "drop" | "both";
                        /**
                         * @description Whether anomalies of the project total (channel "_total") count.
                         * @default true
                         */
                        include_totals?: boolean;
                        /** @description Anomalies of these metrics only (default: every metric). */
                        metrics?: ("spend" | "revenue" | "conversions" | "clicks" | "impressions" | "roas" | "cpa" | "ctr" | "cvr")[];
                        /** @description Anomalies with |z| at least this. */
                        min_abs_z?: number;
                        /** @description Anomalies with a score at least this; applies to anomalies that carry a score. */
                        min_score?: number;
                    };
                    name: string;
                    /** @description What the rule alerts on: anomaly, data_quality, run_failed, daily_insight. */
                    on: ("anomaly" | "data_quality" | "run_failed" | "daily_insight")[];
                    /** @description Project id (e.g. proj_marketing), or a console URL naming it. */
                    project_id: string;
                    /** @default null */
                    quiet_hours?: {
                        /** @description HH:MM in the project time zone. */
                        from: string;
                        /** @description HH:MM in the project time zone. */
                        to: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created_at: string;
                        created_by: string;
                        destinations: {
                            id: string;
                            kind: string;
                            name: string;
                        }[];
                        enabled: boolean;
                        filters: {
                            /** @description Anomalies on these channels only (default: every channel). */
                            channels?: string[];
                            /**
                             * @description spike, drop or both.
                             * @default both
                             * @enum {string}
                             */
                            direction: "spike" | "drop" | "both";
                            /**
                             * @description Whether anomalies of the project total (channel "_total") count.
                             * @default true
                             */
                            include_totals: boolean;
                            /** @description Anomalies of these metrics only (default: every metric). */
                            metrics?: ("spend" | "revenue" | "conversions" | "clicks" | "impressions" | "roas" | "cpa" | "ctr" | "cvr")[];
                            /** @description Anomalies with |z| at least this. */
                            min_abs_z?: number;
                            /** @description Anomalies with a score at least this; applies to anomalies that carry a score. */
                            min_score?: number;
                        };
                        id: string;
                        name: string;
                        on: ("anomaly" | "data_quality" | "run_failed" | "daily_insight")[];
                        project_id: string;
                        quiet_hours: {
                            from: string;
                            to: string;
                        } | null;
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAlertsRulesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created_at: string;
                        created_by: string;
                        destinations: {
                            id: string;
                            kind: string;
                            name: string;
                        }[];
                        enabled: boolean;
                        filters: {
                            /** @description Anomalies on these channels only (default: every channel). */
                            channels?: string[];
                            /**
                             * @description spike, drop or both.
                             * @default both
                             * @enum {string}
                             */
                            direction: "spike" | "drop" | "both";
                            /**
                             * @description Whether anomalies of the project total (channel "_total") count.
                             * @default true
                             */
                            include_totals: boolean;
                            /** @description Anomalies of these metrics only (default: every metric). */
                            metrics?: ("spend" | "revenue" | "conversions" | "clicks" | "impressions" | "roas" | "cpa" | "ctr" | "cvr")[];
                            /** @description Anomalies with |z| at least this. */
                            min_abs_z?: number;
                            /** @description Anomalies with a score at least this; applies to anomalies that carry a score. */
                            min_score?: number;
                        };
                        id: string;
                        name: string;
                        on: ("anomaly" | "data_quality" | "run_failed" | "daily_insight")[];
                        project_id: string;
                        quiet_hours: {
                            from: string;
                            to: string;
                        } | null;
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteApiAlertsRulesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success, no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchApiAlertsRulesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Destination ids of the same project. */
                    destinations?: string[];
                    enabled?: boolean;
                    /** @description Replaces the filters whole. */
                    filters?: {
                        /** @description Anomalies on these channels only (default: every channel). */
                        channels?: string[];
                        /**
                         * @description spike, drop or both.
                         * @default both
                         * @enum {string}
                         */
                        direction?: "spike" | "drop" | "both";
                        /**
                         * @description Whether anomalies of the project total (channel "_total") count.
                         * @default true
                         */
                        include_totals?: boolean;
                        /** @description Anomalies of these metrics only (default: every metric). */
                        metrics?: ("spend" | "revenue" | "conversions" | "clicks" | "impressions" | "roas" | "cpa" | "ctr" | "cvr")[];
                        /** @description Anomalies with |z| at least this. */
                        min_abs_z?: number;
                        /** @description Anomalies with a score at least this; applies to anomalies that carry a score. */
                        min_score?: number;
                    };
                    name?: string;
                    /** @description What the rule alerts on: anomaly, data_quality, run_failed, daily_insight. */
                    on?: ("anomaly" | "data_quality" | "run_failed" | "daily_insight")[];
                    /** @description null removes them. */
                    quiet_hours?: {
                        /** @description HH:MM in the project time zone. */
                        from: string;
                        /** @description HH:MM in the project time zone. */
                        to: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created_at: string;
                        created_by: string;
                        destinations: {
                            id: string;
                            kind: string;
                            name: string;
                        }[];
                        enabled: boolean;
                        filters: {
                            /** @description Anomalies on these channels only (default: every channel). */
                            channels?: string[];
                            /**
                             * @description spike, drop or both.
                             * @default both
                             * @enum {string}
                             */
                            direction: "spike" | "drop" | "both";
                            /**
                             * @description Whether anomalies of the project total (channel "_total") count.
                             * @default true
                             */
                            include_totals: boolean;
                            /** @description Anomalies of these metrics only (default: every metric). */
                            metrics?: ("spend" | "revenue" | "conversions" | "clicks" | "impressions" | "roas" | "cpa" | "ctr" | "cvr")[];
                            /** @description Anomalies with |z| at least this. */
                            min_abs_z?: number;
                            /** @description Anomalies with a score at least this; applies to anomalies that carry a score. */
                            min_score?: number;
                        };
                        id: string;
                        name: string;
                        on: ("anomaly" | "data_quality" | "run_failed" | "daily_insight")[];
                        project_id: string;
                        quiet_hours: {
                            from: string;
                            to: string;
                        } | null;
                        updated_at: string;
                        updated_by: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAnomalies: {
        parameters: {
            query: {
                anomaly_id?: string;
                channel?: string;
                cursor?: string;
                date?: string;
                direction?: "spike" | "drop";
                limit?: number;
                metric?: "spend" | "revenue" | "conversions" | "clicks" | "impressions" | "roas" | "cpa" | "ctr" | "cvr";
                project_id: string;
                since?: string;
                status?: "open" | "acknowledged" | "resolved" | "expected" | "false_positive";
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        anomalies: {
                            /** @description The member the triage assigned it to (null: nobody). */
                            assignee: string | null;
                            /** @description The baseline's expected value (the mean with baseline: mean). */
                            baseline_mean: number | null;
                            /** @description The baseline's scale: 1.4826 × MAD (robust) or the standard deviation. */
                            baseline_stddev: number | null;
                            /** @description "_total" is the project total across channels. */
                            channel: string;
                            context_events: {
                                active_until: string;
                                event_date: string;
                                event_type: string;
                                id: string;
                                title: string;
                            }[];
                            /** @description The peak day (same as peak_date). */
                            date: string;
                            direction: string | null;
                            fired: boolean;
                            /** @description Fired days in the anomaly. */
                            fired_days: number;
                            /** @description First fired day of the run of consecutive fired days. */
                            first_date: string;
                            /** @description Stable anomaly id (anom_…): the same for a re-evaluation of the same days. */
                            id: string;
                            /**
                             * @description level_shift: a sustained move the baseline then re-anchored on.
                             * @enum {string}
                             */
                            kind: "spike" | "drop" | "level_shift";
                            /** @description Last fired day so far. */
                            last_date: string;
                            metric: string;
                            /** @description The floor that applied where the baseline is flat at zero. */
                            min_abs_change: number;
                            min_relative_change: number;
                            /** @description The day with the highest score; the day fields below are that day. */
                            peak_date: string;
                            relative_change: number | null;
                            /** @description Peak score in [0, 1): |z| / (|z| + 3); 1 where the baseline is flat. */
                            score: number;
                            /** @description low, medium, high or critical, from the score. */
                            severity: string;
                            /**
                             * @description Triage status (open until someone triages it).
                             * @enum {string}
                             */
                            status: "open" | "acknowledged" | "resolved" | "expected" | "false_positive";
                            threshold: number;
                            training_size: number;
                            value: number;
                            watch: string;
                            window: {
                                from: string;
                                model: string;
                                seasonality: string;
                                to: string;
                            };
                            /** @description null when the baseline is flat (scale 0): then the relative change decides. */
                            z: number | null;
                        }[];
                        /** @description The anomaly that date or anomaly_id names (null when none was given or nothing fired that day), whether or not it is on this page. */
                        focus: {
                            /** @description The member the triage assigned it to (null: nobody). */
                            assignee: string | null;
                            /** @description The baseline's expected value (the mean with baseline: mean). */
                            baseline_mean: number | null;
                            /** @description The baseline's scale: 1.4826 × MAD (robust) or the standard deviation. */
                            baseline_stddev: number | null;
                            /** @description "_total" is the project total across channels. */
                            channel: string;
                            context_events: {
                                active_until: string;
                                event_date: string;
                                event_type: string;
                                id: string;
                                title: string;
                            }[];
                            /** @description The peak day (same as peak_date). */
                            date: string;
                            direction: string | null;
                            fired: boolean;
                            /** @description Fired days in the anomaly. */
                            fired_days: number;
                            /** @description First fired day of the run of consecutive fired days. */
                            first_date: string;
                            /** @description Stable anomaly id (anom_…): the same for a re-evaluation of the same days. */
                            id: string;
                            /**
                             * @description level_shift: a sustained move the baseline then re-anchored on.
                             * @enum {string}
                             */
                            kind: "spike" | "drop" | "level_shift";
                            /** @description Last fired day so far. */
                            last_date: string;
                            metric: string;
                            /** @description The floor that applied where the baseline is flat at zero. */
                            min_abs_change: number;
                            min_relative_change: number;
                            /** @description The day with the highest score; the day fields below are that day. */
                            peak_date: string;
                            relative_change: number | null;
                            /** @description Peak score in [0, 1): |z| / (|z| + 3); 1 where the baseline is flat. */
                            score: number;
                            /** @description low, medium, high or critical, from the score. */
                            severity: string;
                            /**
                             * @description Triage status (open until someone triages it).
                             * @enum {string}
                             */
                            status: "open" | "acknowledged" | "resolved" | "expected" | "false_positive";
                            threshold: number;
                            training_size: number;
                            value: number;
                            watch: string;
                            window: {
                                from: string;
                                model: string;
                                seasonality: string;
                                to: string;
                            };
                            /** @description null when the baseline is flat (scale 0): then the relative change decides. */
                            z: number | null;
                        } | null;
                        /** @description Pass it as cursor for the next page; null on the last page. */
                        next_cursor: string | null;
                        project_id: string;
                        /** @description First day of the window in use (widened to include date or anomaly_id). */
                        since: string;
                        to: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAnomaliesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The member the triage assigned it to (null: nobody). */
                        assignee: string | null;
                        /** @description The baseline's expected value (the mean with baseline: mean). */
                        baseline_mean: number | null;
                        /** @description The baseline's scale: 1.4826 × MAD (robust) or the standard deviation. */
                        baseline_stddev: number | null;
                        /** @description "_total" is the project total across channels. */
                        channel: string;
                        context_events: {
                            active_until: string;
                            event_date: string;
                            event_type: string;
                            id: string;
                            title: string;
                        }[];
                        /** @description The peak day (same as peak_date). */
                        date: string;
                        /** @description Every evaluated day from first_date to last_date. */
                        days: {
                            baseline_mean: number | null;
                            baseline_stddev: number | null;
                            date: string;
                            direction: string | null;
                            /** @description Left out of later baselines. */
                            excluded: boolean;
                            /** @description The fired series that explains the day (status explained). */
                            explained_by: {
                                channel: string;
                                metric: string;
                            } | null;
                            explained_by_event: {
                                event_type: string;
                                id: string;
                                title: string;
                            } | null;
                            fired: boolean;
                            kind: string | null;
                            model: string;
                            /** @description The largest same-side |value − expected| of the precedent window the day was held against. */
                            precedent: number | null;
                            relative_change: number | null;
                            score: number;
                            severity: string | null;
                            /** @description ok, fired, precedented (past the threshold but not beyond the precedent), explained (past the threshold, explained by another series that fired or by a context event), insufficient_training or insufficient_volume. */
                            status: string;
                            training_size: number;
                            value: number;
                            z: number | null;
                        }[];
                        direction: string | null;
                        fired: boolean;
                        /** @description Fired days in the anomaly. */
                        fired_days: number;
                        /** @description First fired day of the run of consecutive fired days. */
                        first_date: string;
                        /** @description Stable anomaly id (anom_…): the same for a re-evaluation of the same days. */
                        id: string;
                        /**
                         * @description level_shift: a sustained move the baseline then re-anchored on.
                         * @enum {string}
                         */
                        kind: "spike" | "drop" | "level_shift";
                        /** @description Last fired day so far. */
                        last_date: string;
                        metric: string;
                        /** @description The floor that applied where the baseline is flat at zero. */
                        min_abs_change: number;
                        min_relative_change: number;
                        /** @description Days of other series this anomaly explains (a ratio it moved, the total): reported here, not as anomalies. */
                        moved_with_it: {
                            baseline_mean: number | null;
                            channel: string;
                            date: string;
                            metric: string;
                            relative_change: number | null;
                            value: number;
                            z: number | null;
                        }[];
                        /** @description The day with the highest score; the day fields below are that day. */
                        peak_date: string;
                        project_id: string;
                        relative_change: number | null;
                        /** @description Peak score in [0, 1): |z| / (|z| + 3); 1 where the baseline is flat. */
                        score: number;
                        /** @description low, medium, high or critical, from the score. */
                        severity: string;
                        /**
                         * @description Triage status (open until someone triages it).
                         * @enum {string}
                         */
                        status: "open" | "acknowledged" | "resolved" | "expected" | "false_positive";
                        threshold: number;
                        training_size: number;
                        triage: {
                            /** @description The statuses it may move to from here. */
                            allowed_next: ("open" | "acknowledged" | "resolved" | "expected" | "false_positive")[];
                            assignee: string | null;
                            /** @description The linked event as it stands (null when none is linked, or the event is gone). */
                            context_event: {
                                event_date: string;
                                event_type: string;
                                id: string;
                                title: string;
                            } | null;
                            /** @description The linked context event. */
                            context_event_id: string | null;
                            note: string | null;
                            /** @enum {string} */
                            status: "open" | "acknowledged" | "resolved" | "expected" | "false_positive";
                            /** @description When it was last triaged; null when nobody triaged it yet. */
                            updated_at: string | null;
                            /** @description Who triaged it last (their subject). */
                            updated_by: string | null;
                        };
                        value: number;
                        watch: string;
                        window: {
                            from: string;
                            model: string;
                            seasonality: string;
                            to: string;
                        };
                        /** @description null when the baseline is flat (scale 0): then the relative change decides. */
                        z: number | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchApiAnomaliesId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An organization member (their subject). */
                    assignee?: string | null;
                    /** @description A context event of the anomaly's project. */
                    context_event_id?: string | null;
                    note?: string | null;
                    /**
                     * @description open → acknowledged → resolved, or expected / false_positive; a closed status goes back to open only.
                     * @enum {string}
                     */
                    status?: "open" | "acknowledged" | "resolved" | "expected" | "false_positive";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The statuses it may move to from here. */
                        allowed_next: ("open" | "acknowledged" | "resolved" | "expected" | "false_positive")[];
                        anomaly_id: string;
                        assignee: string | null;
                        context_event_id: string | null;
                        note: string | null;
                        /** @description PagerDuty resolve messages this change queued (incidents it closes). */
                        pagerduty_resolves: number;
                        /** @enum {string} */
                        previous_status: "open" | "acknowledged" | "resolved" | "expected" | "false_positive";
                        project_id: string;
                        /** @enum {string} */
                        status: "open" | "acknowledged" | "resolved" | "expected" | "false_positive";
                        /** @description Null when nobody triaged it yet. */
                        updated_at: string | null;
                        updated_by: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAnomaliesIdExplain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        anomaly: {
                            baseline: number | null;
                            channel: string;
                            direction: string | null;
                            first_date: string;
                            id: string | null;
                            last_date: string;
                            metric: string;
                            peak_date: string | null;
                            /** @description The detector: the peak day value, baseline and z. */
                            value: number | null;
                            z: number | null;
                        };
                        context_events: {
                            active_until: string;
                            event_date: string;
                            event_type: string;
                            id: string;
                            title: string;
                        }[];
                        /** @description Of spend, revenue and CPA figures (the KPIs’ reporting currency). */
                        currency: string | null;
                        data_quality: {
                            checks: {
                                dataset: string;
                                datastream_id: string | null;
                                finished_at: string;
                                id: string;
                                message: string;
                                monitor: string;
                                observed: number | null;
                                run_id: string | null;
                                run_window: {
                                    from: string;
                                    to: string;
                                };
                                status: string;
                                threshold: number | null;
                            }[];
                            counts: {
                                error: number;
                                fail: number;
                                pass: number;
                                warn: number;
                            };
                            /**
                             * @description failed: a check failed or errored on a run of these dates, so suspect the data first.
                             * @enum {string}
                             */
                            verdict: "no_checks" | "passed" | "warnings" | "failed";
                        };
                        decomposition: {
                            baseline_value: number | null;
                            /** @enum {string} */
                            breakdown: "channel" | "campaign";
                            /** @description current_value − baseline_value; the parts sum to it. */
                            change: number | null;
                            current_value: number | null;
                            denominator: string | null;
                            folded_parts: number;
                            /** @enum {string} */
                            method: "additive" | "rate_mix";
                            mix_effect?: number;
                            numerator: string | null;
                            parts: {
                                /** @description The same on the baseline days. */
                                baseline: number | null;
                                baseline_weight?: number;
                                /** @description The part's contribution; the parts' changes sum to decomposition.change. */
                                change: number;
                                /** @description Additive: the part's mean per day on the anomaly days; ratio: the part's own rate there. */
                                current: number | null;
                                current_weight?: number;
                                /** @description Channel name (for the total) or campaign id (for a channel); _other folds the rest. */
                                key: string;
                                label: string;
                                /** @description Ratio KPIs: the part of change due to its share of the denominator. */
                                mix_effect?: number;
                                /** @description Ratio KPIs: the part of change due to its own rate. */
                                rate_effect?: number;
                                /** @description change / decomposition.change (null when that is 0). */
                                share_of_change: number | null;
                                /** @description |change| / the largest part's |change| among the parts listed: 1 for the largest mover. */
                                share_of_largest: number;
                            }[];
                            rate_effect?: number;
                            relative_change: number | null;
                            unavailable?: string;
                        };
                        periods: {
                            baseline: {
                                days: number;
                                days_with_data: number;
                                /** @description Days of the window the detector left out of baselines (fired, low volume, expected). */
                                excluded_days: number;
                                from: string;
                                seasonality: string;
                                to: string;
                                /**
                                 * @description same_weekday: each anomaly day is compared with baseline days of its weekday.
                                 * @enum {string}
                                 */
                                weighting: "equal" | "same_weekday";
                            };
                            current: {
                                days: number;
                                days_with_data: number;
                                from: string;
                                to: string;
                            };
                        };
                        project_id: string;
                        skills: {
                            keys: string[];
                            matches: {
                                description: string;
                                keys: string[];
                                name: string;
                                next: {
                                    arguments: {
                                        name: string;
                                    };
                                    /** @constant */
                                    tool: "get_procedure";
                                };
                                version: number;
                            }[];
                        };
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAnomaliesIdTriage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The statuses it may move to from here. */
                        allowed_next: ("open" | "acknowledged" | "resolved" | "expected" | "false_positive")[];
                        anomaly_id: string;
                        assignee: string | null;
                        context_event_id: string | null;
                        note: string | null;
                        /** @description PagerDuty resolve messages this change queued (incidents it closes). */
                        pagerduty_resolves: number;
                        /** @enum {string} */
                        previous_status: "open" | "acknowledged" | "resolved" | "expected" | "false_positive";
                        project_id: string;
                        /** @enum {string} */
                        status: "open" | "acknowledged" | "resolved" | "expected" | "false_positive";
                        /** @description Null when nobody triaged it yet. */
                        updated_at: string | null;
                        updated_by: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiAnomaliesEvaluate: {
        parameters: {
            query: {
                from?: string;
                project_id: string;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        fired: number;
                        from: string | null;
                        project_id: string;
                        rows: number;
                        to: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAnomaliesFeedback: {
        parameters: {
            query: {
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        from: string;
                        project_id: string;
                        rows: {
                            channel: string;
                            /** @description Triaged acknowledged, resolved or expected. */
                            confirmed: number;
                            false_positives: number;
                            /** @description Anomalies with a fired day in the period. */
                            fired: number;
                            metric: string;
                            /** @description confirmed / (confirmed + false_positives); null before any verdict. */
                            precision: number | null;
                            /** @description Of those, triaged (any status but open). */
                            triaged: number;
                        }[];
                        to: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAnomaliesFeedbackSuggestions: {
        parameters: {
            query: {
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        candidates: {
                            confirmed_missed: number;
                            /** @description Confirmed anomalies that would still fire. */
                            confirmed_still_fired: number;
                            /** @description Triaged false positives that would not have fired. */
                            false_positives_silenced: number;
                            false_positives_still_fired: number;
                            /** @description Anomalies the replay fires (series-days runs). */
                            fired: number;
                            /** @description What the candidate changes. */
                            label: string;
                            /** @description The whole settings to PUT /api/anomalies/settings to apply it. */
                            settings: {
                                /**
                                 * @description robust (default): median and a winsorized scale; mean: mean and sample standard deviation.
                                 * @enum {string}
                                 */
                                baseline?: "robust" | "mean";
                                /**
                                 * @description spike, drop or both (default both).
                                 * @enum {string}
                                 */
                                direction?: "spike" | "drop" | "both";
                                /** @description Leave fired days out of later baselines (default true; Elementary: anomaly_exclude_metrics). */
                                exclude_anomalies?: boolean;
                                /** @description Context event types whose active window explains the days it covers: such a day does not fire (status explained, naming the event) and is left out of later baselines (default ["holiday"]; [] turns it off). */
                                expected_event_types?: string[];
                                /** @description A day that fired with a series that explains it (a ratio with its numerator or denominator, the total with a channel) is reported as explained by it, not as an anomaly of its own (default true). */
                                explain_related?: boolean;
                                /** @description Consecutive fired days that make a level shift (default 5). */
                                level_shift_days?: number;
                                /** @description A move fired on level_shift_days consecutive days on one side is one level shift, and the baseline re-anchors on the new level (default true). */
                                level_shifts?: boolean;
                                metrics?: {
                                    clicks?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    conversions?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    cpa?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    ctr?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    cvr?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    impressions?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    revenue?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    roas?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    spend?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                };
                                /** @description Where the baseline is flat at zero (no relative change exists): minimum |value − mean| to fire, in the metric's unit, for every metric. Default per metric: 1 (spend, revenue, cpa, conversions, clicks), 100 impressions, 0.1 roas, 0.001 ctr, 0.01 cvr. */
                                min_abs_change?: number;
                                /** @description Minimum |value − mean| / |mean| to fire (default 0.05 = 5%). */
                                min_relative_change?: number;
                                /** @description Baseline points needed before anything fires (default 14). */
                                min_training_days?: number;
                                /** @description A new anomaly fires only when |value − expected| beats every same-side deviation of the series in this many preceding days (default 1460; 0 turns the check off). Days people triaged acknowledged or resolved never count. */
                                precedent_days?: number;
                                /** @description The share by which a new spike must beat the precedent: |value − expected| > (1 + precedent_margin) × the largest same-side deviation of precedent_days (default 0.08; 0: any larger deviation). Drops too when precedent_margin_drop is not given. */
                                precedent_margin?: number;
                                /** @description The same share for a new drop (default: precedent_margin when that is given, else 0.04): a drop is bounded by the level, so a second outage to zero beats the first only by the growth in between. */
                                precedent_margin_drop?: number;
                                /** @description Weeks of same-weekday history with day_of_week seasonality (default 8). */
                                seasonal_weeks?: number;
                                /**
                                 * @description auto (default): a weekly profile and a trend term per series and day, each kept when it cuts the baseline's spread to 60% or less; none; day_of_week: the baseline is the same weekday over seasonal_weeks weeks.
                                 * @enum {string}
                                 */
                                seasonality?: "auto" | "none" | "day_of_week";
                                /** @description A day short of the threshold also passes it when, with the up to sustained_days − 1 days before it that were ok and on the same side, (z_t + … + z_{t−k+1}) / √k does (default 2; 1: each day alone). */
                                sustained_days?: number;
                                /** @description |z| at or above which an anomaly fires (default 3.5). */
                                threshold?: number;
                                /** @description Trailing baseline length in days, excluding the day evaluated (default 56). */
                                window_days?: number;
                            };
                        }[];
                        confirmed: number;
                        /** @description The stored settings replayed (the reference). */
                        current: {
                            confirmed_missed: number;
                            /** @description Confirmed anomalies that would still fire. */
                            confirmed_still_fired: number;
                            /** @description Triaged false positives that would not have fired. */
                            false_positives_silenced: number;
                            false_positives_still_fired: number;
                            /** @description Anomalies the replay fires (series-days runs). */
                            fired: number;
                            /** @description What the candidate changes. */
                            label: string;
                            /** @description The whole settings to PUT /api/anomalies/settings to apply it. */
                            settings: {
                                /**
                                 * @description robust (default): median and a winsorized scale; mean: mean and sample standard deviation.
                                 * @enum {string}
                                 */
                                baseline?: "robust" | "mean";
                                /**
                                 * @description spike, drop or both (default both).
                                 * @enum {string}
                                 */
                                direction?: "spike" | "drop" | "both";
                                /** @description Leave fired days out of later baselines (default true; Elementary: anomaly_exclude_metrics). */
                                exclude_anomalies?: boolean;
                                /** @description Context event types whose active window explains the days it covers: such a day does not fire (status explained, naming the event) and is left out of later baselines (default ["holiday"]; [] turns it off). */
                                expected_event_types?: string[];
                                /** @description A day that fired with a series that explains it (a ratio with its numerator or denominator, the total with a channel) is reported as explained by it, not as an anomaly of its own (default true). */
                                explain_related?: boolean;
                                /** @description Consecutive fired days that make a level shift (default 5). */
                                level_shift_days?: number;
                                /** @description A move fired on level_shift_days consecutive days on one side is one level shift, and the baseline re-anchors on the new level (default true). */
                                level_shifts?: boolean;
                                metrics?: {
                                    clicks?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    conversions?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    cpa?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    ctr?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    cvr?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    impressions?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    revenue?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    roas?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                    spend?: {
                                        /** @enum {string} */
                                        direction?: "spike" | "drop" | "both";
                                        enabled?: boolean;
                                        min_abs_change?: number;
                                        min_relative_change?: number;
                                        min_training_days?: number;
                                        /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                        min_volume?: number;
                                        threshold?: number;
                                    };
                                };
                                /** @description Where the baseline is flat at zero (no relative change exists): minimum |value − mean| to fire, in the metric's unit, for every metric. Default per metric: 1 (spend, revenue, cpa, conversions, clicks), 100 impressions, 0.1 roas, 0.001 ctr, 0.01 cvr. */
                                min_abs_change?: number;
                                /** @description Minimum |value − mean| / |mean| to fire (default 0.05 = 5%). */
                                min_relative_change?: number;
                                /** @description Baseline points needed before anything fires (default 14). */
                                min_training_days?: number;
                                /** @description A new anomaly fires only when |value − expected| beats every same-side deviation of the series in this many preceding days (default 1460; 0 turns the check off). Days people triaged acknowledged or resolved never count. */
                                precedent_days?: number;
                                /** @description The share by which a new spike must beat the precedent: |value − expected| > (1 + precedent_margin) × the largest same-side deviation of precedent_days (default 0.08; 0: any larger deviation). Drops too when precedent_margin_drop is not given. */
                                precedent_margin?: number;
                                /** @description The same share for a new drop (default: precedent_margin when that is given, else 0.04): a drop is bounded by the level, so a second outage to zero beats the first only by the growth in between. */
                                precedent_margin_drop?: number;
                                /** @description Weeks of same-weekday history with day_of_week seasonality (default 8). */
                                seasonal_weeks?: number;
                                /**
                                 * @description auto (default): a weekly profile and a trend term per series and day, each kept when it cuts the baseline's spread to 60% or less; none; day_of_week: the baseline is the same weekday over seasonal_weeks weeks.
                                 * @enum {string}
                                 */
                                seasonality?: "auto" | "none" | "day_of_week";
                                /** @description A day short of the threshold also passes it when, with the up to sustained_days − 1 days before it that were ok and on the same side, (z_t + … + z_{t−k+1}) / √k does (default 2; 1: each day alone). */
                                sustained_days?: number;
                                /** @description |z| at or above which an anomaly fires (default 3.5). */
                                threshold?: number;
                                /** @description Trailing baseline length in days, excluding the day evaluated (default 56). */
                                window_days?: number;
                            };
                        };
                        false_positives: number;
                        from: string;
                        project_id: string;
                        to: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAnomaliesSeries: {
        parameters: {
            query: {
                channel?: string;
                from?: string;
                metric: "spend" | "revenue" | "conversions" | "clicks" | "impressions" | "roas" | "cpa" | "ctr" | "cvr";
                project_id?: string;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        channel: string;
                        currency: string;
                        from: string;
                        metric: string;
                        points: {
                            baseline_mean: number | null;
                            baseline_stddev: number | null;
                            date: string;
                            explained_by: {
                                channel: string;
                                metric: string;
                            } | null;
                            explained_by_event: {
                                event_type: string;
                                id: string;
                                title: string;
                            } | null;
                            fired: boolean;
                            precedent: number | null;
                            score: number;
                            status: string;
                            training_size: number;
                            value: number;
                            z: number | null;
                        }[];
                        project_id: string;
                        rule: {
                            direction: string;
                            enabled: boolean;
                            min_relative_change: number;
                            min_training_days: number;
                            seasonality: string;
                            /** @description The band is baseline_mean ± threshold × baseline_stddev. */
                            threshold: number;
                            window_days: number;
                        };
                        to: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiAnomaliesSettings: {
        parameters: {
            query: {
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        effective: {
                            baseline: string;
                            direction: string;
                            exclude_anomalies: boolean;
                            expected_event_types: string[];
                            explain_related: boolean;
                            level_shift_days: number;
                            level_shifts: boolean;
                            metrics: {
                                direction: string;
                                enabled: boolean;
                                metric: string;
                                min_abs_change: number;
                                min_relative_change: number;
                                min_training_days: number;
                                min_volume: number | null;
                                threshold: number;
                                volume_metric: string | null;
                            }[];
                            /** @description null: each metric's own default (see metrics[]). */
                            min_abs_change: number | null;
                            min_relative_change: number;
                            min_training_days: number;
                            precedent_days: number;
                            precedent_margin: number;
                            precedent_margin_drop: number;
                            seasonal_weeks: number;
                            seasonality: string;
                            sustained_days: number;
                            threshold: number;
                            window_days: number;
                        };
                        project_id: string;
                        /** @description What was stored (PUT replaces it whole). */
                        settings: {
                            /**
                             * @description robust (default): median and a winsorized scale; mean: mean and sample standard deviation.
                             * @enum {string}
                             */
                            baseline?: "robust" | "mean";
                            /**
                             * @description spike, drop or both (default both).
                             * @enum {string}
                             */
                            direction?: "spike" | "drop" | "both";
                            /** @description Leave fired days out of later baselines (default true; Elementary: anomaly_exclude_metrics). */
                            exclude_anomalies?: boolean;
                            /** @description Context event types whose active window explains the days it covers: such a day does not fire (status explained, naming the event) and is left out of later baselines (default ["holiday"]; [] turns it off). */
                            expected_event_types?: string[];
                            /** @description A day that fired with a series that explains it (a ratio with its numerator or denominator, the total with a channel) is reported as explained by it, not as an anomaly of its own (default true). */
                            explain_related?: boolean;
                            /** @description Consecutive fired days that make a level shift (default 5). */
                            level_shift_days?: number;
                            /** @description A move fired on level_shift_days consecutive days on one side is one level shift, and the baseline re-anchors on the new level (default true). */
                            level_shifts?: boolean;
                            metrics?: {
                                clicks?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                conversions?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                cpa?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                ctr?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                cvr?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                impressions?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                revenue?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                roas?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                spend?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                            };
                            /** @description Where the baseline is flat at zero (no relative change exists): minimum |value − mean| to fire, in the metric's unit, for every metric. Default per metric: 1 (spend, revenue, cpa, conversions, clicks), 100 impressions, 0.1 roas, 0.001 ctr, 0.01 cvr. */
                            min_abs_change?: number;
                            /** @description Minimum |value − mean| / |mean| to fire (default 0.05 = 5%). */
                            min_relative_change?: number;
                            /** @description Baseline points needed before anything fires (default 14). */
                            min_training_days?: number;
                            /** @description A new anomaly fires only when |value − expected| beats every same-side deviation of the series in this many preceding days (default 1460; 0 turns the check off). Days people triaged acknowledged or resolved never count. */
                            precedent_days?: number;
                            /** @description The share by which a new spike must beat the precedent: |value − expected| > (1 + precedent_margin) × the largest same-side deviation of precedent_days (default 0.08; 0: any larger deviation). Drops too when precedent_margin_drop is not given. */
                            precedent_margin?: number;
                            /** @description The same share for a new drop (default: precedent_margin when that is given, else 0.04): a drop is bounded by the level, so a second outage to zero beats the first only by the growth in between. */
                            precedent_margin_drop?: number;
                            /** @description Weeks of same-weekday history with day_of_week seasonality (default 8). */
                            seasonal_weeks?: number;
                            /**
                             * @description auto (default): a weekly profile and a trend term per series and day, each kept when it cuts the baseline's spread to 60% or less; none; day_of_week: the baseline is the same weekday over seasonal_weeks weeks.
                             * @enum {string}
                             */
                            seasonality?: "auto" | "none" | "day_of_week";
                            /** @description A day short of the threshold also passes it when, with the up to sustained_days − 1 days before it that were ok and on the same side, (z_t + … + z_{t−k+1}) / √k does (default 2; 1: each day alone). */
                            sustained_days?: number;
                            /** @description |z| at or above which an anomaly fires (default 3.5). */
                            threshold?: number;
                            /** @description Trailing baseline length in days, excluding the day evaluated (default 56). */
                            window_days?: number;
                        };
                        updated_at: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putApiAnomaliesSettings: {
        parameters: {
            query: {
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description robust (default): median and a winsorized scale; mean: mean and sample standard deviation.
                     * @enum {string}
                     */
                    baseline?: "robust" | "mean";
                    /**
                     * @description spike, drop or both (default both).
                     * @enum {string}
                     */
                    direction?: "spike" | "drop" | "both";
                    /** @description Leave fired days out of later baselines (default true; Elementary: anomaly_exclude_metrics). */
                    exclude_anomalies?: boolean;
                    /** @description Context event types whose active window explains the days it covers: such a day does not fire (status explained, naming the event) and is left out of later baselines (default ["holiday"]; [] turns it off). */
                    expected_event_types?: string[];
                    /** @description A day that fired with a series that explains it (a ratio with its numerator or denominator, the total with a channel) is reported as explained by it, not as an anomaly of its own (default true). */
                    explain_related?: boolean;
                    /** @description Consecutive fired days that make a level shift (default 5). */
                    level_shift_days?: number;
                    /** @description A move fired on level_shift_days consecutive days on one side is one level shift, and the baseline re-anchors on the new level (default true). */
                    level_shifts?: boolean;
                    metrics?: {
                        clicks?: {
                            /** @enum {string} */
                            direction?: "spike" | "drop" | "both";
                            enabled?: boolean;
                            min_abs_change?: number;
                            min_relative_change?: number;
                            min_training_days?: number;
                            /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                            min_volume?: number;
                            threshold?: number;
                        };
                        conversions?: {
                            /** @enum {string} */
                            direction?: "spike" | "drop" | "both";
                            enabled?: boolean;
                            min_abs_change?: number;
                            min_relative_change?: number;
                            min_training_days?: number;
                            /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                            min_volume?: number;
                            threshold?: number;
                        };
                        cpa?: {
                            /** @enum {string} */
                            direction?: "spike" | "drop" | "both";
                            enabled?: boolean;
                            min_abs_change?: number;
                            min_relative_change?: number;
                            min_training_days?: number;
                            /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                            min_volume?: number;
                            threshold?: number;
                        };
                        ctr?: {
                            /** @enum {string} */
                            direction?: "spike" | "drop" | "both";
                            enabled?: boolean;
                            min_abs_change?: number;
                            min_relative_change?: number;
                            min_training_days?: number;
                            /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                            min_volume?: number;
                            threshold?: number;
                        };
                        cvr?: {
                            /** @enum {string} */
                            direction?: "spike" | "drop" | "both";
                            enabled?: boolean;
                            min_abs_change?: number;
                            min_relative_change?: number;
                            min_training_days?: number;
                            /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                            min_volume?: number;
                            threshold?: number;
                        };
                        impressions?: {
                            /** @enum {string} */
                            direction?: "spike" | "drop" | "both";
                            enabled?: boolean;
                            min_abs_change?: number;
                            min_relative_change?: number;
                            min_training_days?: number;
                            /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                            min_volume?: number;
                            threshold?: number;
                        };
                        revenue?: {
                            /** @enum {string} */
                            direction?: "spike" | "drop" | "both";
                            enabled?: boolean;
                            min_abs_change?: number;
                            min_relative_change?: number;
                            min_training_days?: number;
                            /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                            min_volume?: number;
                            threshold?: number;
                        };
                        roas?: {
                            /** @enum {string} */
                            direction?: "spike" | "drop" | "both";
                            enabled?: boolean;
                            min_abs_change?: number;
                            min_relative_change?: number;
                            min_training_days?: number;
                            /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                            min_volume?: number;
                            threshold?: number;
                        };
                        spend?: {
                            /** @enum {string} */
                            direction?: "spike" | "drop" | "both";
                            enabled?: boolean;
                            min_abs_change?: number;
                            min_relative_change?: number;
                            min_training_days?: number;
                            /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                            min_volume?: number;
                            threshold?: number;
                        };
                    };
                    /** @description Where the baseline is flat at zero (no relative change exists): minimum |value − mean| to fire, in the metric's unit, for every metric. Default per metric: 1 (spend, revenue, cpa, conversions, clicks), 100 impressions, 0.1 roas, 0.001 ctr, 0.01 cvr. */
                    min_abs_change?: number;
                    /** @description Minimum |value − mean| / |mean| to fire (default 0.05 = 5%). */
                    min_relative_change?: number;
                    /** @description Baseline points needed before anything fires (default 14). */
                    min_training_days?: number;
                    /** @description A new anomaly fires only when |value − expected| beats every same-side deviation of the series in this many preceding days (default 1460; 0 turns the check off). Days people triaged acknowledged or resolved never count. */
                    precedent_days?: number;
                    /** @description The share by which a new spike must beat the precedent: |value − expected| > (1 + precedent_margin) × the largest same-side deviation of precedent_days (default 0.08; 0: any larger deviation). Drops too when precedent_margin_drop is not given. */
                    precedent_margin?: number;
                    /** @description The same share for a new drop (default: precedent_margin when that is given, else 0.04): a drop is bounded by the level, so a second outage to zero beats the first only by the growth in between. */
                    precedent_margin_drop?: number;
                    /** @description Weeks of same-weekday history with day_of_week seasonality (default 8). */
                    seasonal_weeks?: number;
                    /**
                     * @description auto (default): a weekly profile and a trend term per series and day, each kept when it cuts the baseline's spread to 60% or less; none; day_of_week: the baseline is the same weekday over seasonal_weeks weeks.
                     * @enum {string}
                     */
                    seasonality?: "auto" | "none" | "day_of_week";
                    /** @description A day short of the threshold also passes it when, with the up to sustained_days − 1 days before it that were ok and on the same side, (z_t + … + z_{t−k+1}) / √k does (default 2; 1: each day alone). */
                    sustained_days?: number;
                    /** @description |z| at or above which an anomaly fires (default 3.5). */
                    threshold?: number;
                    /** @description Trailing baseline length in days, excluding the day evaluated (default 56). */
                    window_days?: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        effective: {
                            baseline: string;
                            direction: string;
                            exclude_anomalies: boolean;
                            expected_event_types: string[];
                            explain_related: boolean;
                            level_shift_days: number;
                            level_shifts: boolean;
                            metrics: {
                                direction: string;
                                enabled: boolean;
                                metric: string;
                                min_abs_change: number;
                                min_relative_change: number;
                                min_training_days: number;
                                min_volume: number | null;
                                threshold: number;
                                volume_metric: string | null;
                            }[];
                            /** @description null: each metric's own default (see metrics[]). */
                            min_abs_change: number | null;
                            min_relative_change: number;
                            min_training_days: number;
                            precedent_days: number;
                            precedent_margin: number;
                            precedent_margin_drop: number;
                            seasonal_weeks: number;
                            seasonality: string;
                            sustained_days: number;
                            threshold: number;
                            window_days: number;
                        };
                        project_id: string;
                        /** @description What was stored (PUT replaces it whole). */
                        settings: {
                            /**
                             * @description robust (default): median and a winsorized scale; mean: mean and sample standard deviation.
                             * @enum {string}
                             */
                            baseline?: "robust" | "mean";
                            /**
                             * @description spike, drop or both (default both).
                             * @enum {string}
                             */
                            direction?: "spike" | "drop" | "both";
                            /** @description Leave fired days out of later baselines (default true; Elementary: anomaly_exclude_metrics). */
                            exclude_anomalies?: boolean;
                            /** @description Context event types whose active window explains the days it covers: such a day does not fire (status explained, naming the event) and is left out of later baselines (default ["holiday"]; [] turns it off). */
                            expected_event_types?: string[];
                            /** @description A day that fired with a series that explains it (a ratio with its numerator or denominator, the total with a channel) is reported as explained by it, not as an anomaly of its own (default true). */
                            explain_related?: boolean;
                            /** @description Consecutive fired days that make a level shift (default 5). */
                            level_shift_days?: number;
                            /** @description A move fired on level_shift_days consecutive days on one side is one level shift, and the baseline re-anchors on the new level (default true). */
                            level_shifts?: boolean;
                            metrics?: {
                                clicks?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                conversions?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                cpa?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                ctr?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                cvr?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                impressions?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                revenue?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                roas?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                                spend?: {
                                    /** @enum {string} */
                                    direction?: "spike" | "drop" | "both";
                                    enabled?: boolean;
                                    min_abs_change?: number;
                                    min_relative_change?: number;
                                    min_training_days?: number;
                                    /** @description Ratio metrics only (roas, cpa: conversions; cvr: clicks; ctr: impressions): the smallest count on the day for the ratio to fire; below it the row says insufficient_volume. 0 turns the guard off. */
                                    min_volume?: number;
                                    threshold?: number;
                                };
                            };
                            /** @description Where the baseline is flat at zero (no relative change exists): minimum |value − mean| to fire, in the metric's unit, for every metric. Default per metric: 1 (spend, revenue, cpa, conversions, clicks), 100 impressions, 0.1 roas, 0.001 ctr, 0.01 cvr. */
                            min_abs_change?: number;
                            /** @description Minimum |value − mean| / |mean| to fire (default 0.05 = 5%). */
                            min_relative_change?: number;
                            /** @description Baseline points needed before anything fires (default 14). */
                            min_training_days?: number;
                            /** @description A new anomaly fires only when |value − expected| beats every same-side deviation of the series in this many preceding days (default 1460; 0 turns the check off). Days people triaged acknowledged or resolved never count. */
                            precedent_days?: number;
                            /** @description The share by which a new spike must beat the precedent: |value − expected| > (1 + precedent_margin) × the largest same-side deviation of precedent_days (default 0.08; 0: any larger deviation). Drops too when precedent_margin_drop is not given. */
                            precedent_margin?: number;
                            /** @description The same share for a new drop (default: precedent_margin when that is given, else 0.04): a drop is bounded by the level, so a second outage to zero beats the first only by the growth in between. */
                            precedent_margin_drop?: number;
                            /** @description Weeks of same-weekday history with day_of_week seasonality (default 8). */
                            seasonal_weeks?: number;
                            /**
                             * @description auto (default): a weekly profile and a trend term per series and day, each kept when it cuts the baseline's spread to 60% or less; none; day_of_week: the baseline is the same weekday over seasonal_weeks weeks.
                             * @enum {string}
                             */
                            seasonality?: "auto" | "none" | "day_of_week";
                            /** @description A day short of the threshold also passes it when, with the up to sustained_days − 1 days before it that were ok and on the same side, (z_t + … + z_{t−k+1}) / √k does (default 2; 1: each day alone). */
                            sustained_days?: number;
                            /** @description |z| at or above which an anomaly fires (default 3.5). */
                            threshold?: number;
                            /** @description Trailing baseline length in days, excluding the day evaluated (default 56). */
                            window_days?: number;
                        };
                        updated_at: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiConnectorsNangoWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        received: true;
                        updated: number;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiConsoleConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        auth_mode: "disabled" | "static" | "oauth";
                        oauth: {
                            /** @description CONSOLE_OAUTH_CLIENT_ID; null when not configured. */
                            client_id: string | null;
                            /** @description OAUTH_ISSUER: the console discovers its endpoints from its metadata. */
                            issuer: string;
                            /** @description The resource indicator (RFC 8707) tokens are asked for: the REST API. */
                            resource: string;
                            /** @description The scopes the console asks for. */
                            scopes: string[];
                        } | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiContextBusinessLinks: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        links: {
                            business_key: string;
                            created_at: string;
                            id: string;
                            relation_type: string;
                            source_id: string;
                            /** @description The Skill's name or the Knowledge topic_id. */
                            source_key: string;
                            source_type: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiContextBusinessLinks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Business key, e.g. kpi.roas. */
                    business_key: string;
                    /** @description Project id, or a console URL naming it; "default": your only project. */
                    project_id?: string;
                    /** @enum {string} */
                    relation_type: "explains" | "uses" | "related_to";
                    /** @description The object's id (or a Skill's name / a Knowledge topic_id). */
                    source_id: string;
                    /** @enum {string} */
                    source_type: "knowledge" | "skill";
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        business_key: string;
                        created_at: string;
                        id: string;
                        relation_type: string;
                        source_id: string;
                        /** @description The Skill's name or the Knowledge topic_id. */
                        source_key: string;
                        source_type: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteApiContextBusinessLinksId: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success, no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiContextEvents: {
        parameters: {
            query: {
                active_on?: string;
                cursor?: string;
                event_type?: string;
                limit?: number;
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            /** @description First day the event explains data (= event_date). */
                            active_from: string;
                            /** @description Whether today, in the project's timezone, is within the active window. */
                            active_today: boolean;
                            /** @description Last day it explains data: (end_date or event_date) + impact_window_days. */
                            active_until: string;
                            created_at: string;
                            created_by: string;
                            description: string;
                            end_date: string | null;
                            event_date: string;
                            /** @description The normalized label (lowercase snake_case). */
                            event_type: string;
                            id: string;
                            impact_window_days: number;
                            project_id: string;
                            title: string;
                            updated_at: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiContextEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default  */
                    description?: string;
                    /** @description Last day of a multi-day event. */
                    end_date?: string | null;
                    /**
                     * Format: date
                     * @description The day it happened or started, in the project timezone.
                     */
                    event_date: string;
                    /** @description Any short label, stored as snake_case; known: release, launch, redesign, checkout_change, campaign_launch, promotion, pricing_change, tracking_change, outage, holiday, budget_change, other. */
                    event_type: string;
                    /**
                     * @description Days after the event (or its end_date) it may still explain the data.
                     * @default 7
                     */
                    impact_window_days?: number;
                    /** @description Project id (e.g. proj_marketing), or a console URL naming it. */
                    project_id: string;
                    /** @description Short name, e.g. "Checkout v2 release". */
                    title: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description First day the event explains data (= event_date). */
                        active_from: string;
                        /** @description Whether today, in the project's timezone, is within the active window. */
                        active_today: boolean;
                        /** @description Last day it explains data: (end_date or event_date) + impact_window_days. */
                        active_until: string;
                        created_at: string;
                        created_by: string;
                        description: string;
                        end_date: string | null;
                        event_date: string;
                        /** @description The normalized label (lowercase snake_case). */
                        event_type: string;
                        id: string;
                        impact_window_days: number;
                        project_id: string;
                        title: string;
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiContextEventsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description First day the event explains data (= event_date). */
                        active_from: string;
                        /** @description Whether today, in the project's timezone, is within the active window. */
                        active_today: boolean;
                        /** @description Last day it explains data: (end_date or event_date) + impact_window_days. */
                        active_until: string;
                        created_at: string;
                        created_by: string;
                        description: string;
                        end_date: string | null;
                        event_date: string;
                        /** @description The normalized label (lowercase snake_case). */
                        event_type: string;
                        id: string;
                        impact_window_days: number;
                        project_id: string;
                        title: string;
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteApiContextEventsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success, no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchApiContextEventsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    /** @description null clears it. */
                    end_date?: string | null;
                    /** Format: date */
                    event_date?: string;
                    /** @description Any short label, stored as snake_case; known: release, launch, redesign, checkout_change, campaign_launch, promotion, pricing_change, tracking_change, outage, holiday, budget_change, other. */
                    event_type?: string;
                    /** @description Days after the event (or its end_date) it may still explain the data. */
                    impact_window_days?: number;
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description First day the event explains data (= event_date). */
                        active_from: string;
                        /** @description Whether today, in the project's timezone, is within the active window. */
                        active_today: boolean;
                        /** @description Last day it explains data: (end_date or event_date) + impact_window_days. */
                        active_until: string;
                        created_at: string;
                        created_by: string;
                        description: string;
                        end_date: string | null;
                        event_date: string;
                        /** @description The normalized label (lowercase snake_case). */
                        event_type: string;
                        id: string;
                        impact_window_days: number;
                        project_id: string;
                        title: string;
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The provider's settings (not secret): URLs, mapping, query…
                     * @default {}
                     */
                    config?: {
                        [key: string]: unknown;
                    };
                    connection_ref_id: string;
                    /** @description Project id (e.g. proj_marketing), or a console URL naming it. */
                    project_id: string;
                    provider: string;
                    /** @description Credentials (client secret, refresh token, connection string…). Encrypted at rest, never returned. Omit to keep the stored ones. */
                    secrets?: {
                        [key: string]: unknown;
                    };
                    /**
                     * @description Set to revoke the connection; runs then refuse to use it.
                     * @constant
                     */
                    status?: "revoked";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        config: {
                            [key: string]: unknown;
                        };
                        connection_ref_id: string;
                        created_at: string;
                        has_secrets: boolean;
                        integration_url: string | null;
                        last_error: string | null;
                        last_verification: {
                            connectivity: {
                                ms: number;
                                ok: boolean;
                                reason: string | null;
                            };
                            token_check: {
                                ms: number;
                                ok: boolean;
                                reason: string | null;
                            };
                        } | null;
                        last_verified_at: string | null;
                        /** @description The outbound policy refusal of the last verify or run, when that is why it failed */
                        outbound_refusal: string | null;
                        project_id: string;
                        provider: string;
                        secrets_rotated_at: string | null;
                        /** @enum {string} */
                        status: "active" | "error" | "expired" | "revoked";
                        token: {
                            expires_at: string | null;
                            last_error: string | null;
                            last_refresh_at: string | null;
                            /**
                             * @description Where the credentials come from: stored secrets, tokens from its own token endpoint, or Nango
                             * @enum {string}
                             */
                            source: "secrets" | "token_endpoint" | "nango";
                        };
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiCredentialsConnectLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connection_ref_id: string;
                    /** @description Project id (e.g. proj_marketing), or a console URL naming it. */
                    project_id: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connect_link: string | null;
                        expires_at: string;
                        /** @description The connect session token (for Nango's frontend SDK) */
                        token: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiCredentialsList: {
        parameters: {
            query: {
                cursor?: string;
                limit?: number;
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connections: {
                            config: {
                                [key: string]: unknown;
                            };
                            connection_ref_id: string;
                            created_at: string;
                            has_secrets: boolean;
                            integration_url: string | null;
                            last_error: string | null;
                            last_verification: {
                                connectivity: {
                                    ms: number;
                                    ok: boolean;
                                    reason: string | null;
                                };
                                token_check: {
                                    ms: number;
                                    ok: boolean;
                                    reason: string | null;
                                };
                            } | null;
                            last_verified_at: string | null;
                            /** @description The outbound policy refusal of the last verify or run, when that is why it failed */
                            outbound_refusal: string | null;
                            project_id: string;
                            provider: string;
                            secrets_rotated_at: string | null;
                            /** @enum {string} */
                            status: "active" | "error" | "expired" | "revoked";
                            token: {
                                expires_at: string | null;
                                last_error: string | null;
                                last_refresh_at: string | null;
                                /**
                                 * @description Where the credentials come from: stored secrets, tokens from its own token endpoint, or Nango
                                 * @enum {string}
                                 */
                                source: "secrets" | "token_endpoint" | "nango";
                            };
                            updated_at: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiCredentialsVerify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    connection_ref_id: string;
                    /** @description Project id (e.g. proj_marketing), or a console URL naming it. */
                    project_id: string;
                    provider: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connectivity: {
                            ms: number;
                            ok: boolean;
                            reason: string | null;
                        };
                        /** @enum {string} */
                        status: "active" | "error" | "expired" | "revoked";
                        token_check: {
                            ms: number;
                            ok: boolean;
                            reason: string | null;
                        };
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiDqStatus: {
        parameters: {
            query: {
                cursor?: string;
                limit?: number;
                project_id: string;
                status?: "pass" | "warn" | "fail" | "error";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiFlows: {
        parameters: {
            query: {
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        datastreams: {
                            cadence: string | null;
                            connection_ref_id: string;
                            created_at: string;
                            id: string;
                            name: string;
                            next_run_at: string | null;
                            project_id: string;
                            provider: string;
                            retrieval_window: {
                                lookback_days: number;
                                start_date: string | null;
                            };
                            schedule: {
                                cron: string | null;
                                timezone: string;
                            };
                            /** @enum {string} */
                            schedule_source: "datastream" | "default";
                            timezone: string;
                            updated_at: string;
                        }[];
                        report_definitions: {
                            created_at: string;
                            definition: {
                                [key: string]: unknown;
                            };
                            id: string;
                            name: string;
                            project_id: string;
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiFlowsIdRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        run: {
                            attempts: number;
                            datastream_id: string;
                            error: string | null;
                            finished_at: string | null;
                            id: string;
                            project_id: string;
                            queued_at: string;
                            retries_exhausted: boolean;
                            rows_read: number;
                            rows_written: number;
                            /** @description Milliseconds the run waited on its source: retry delays it named, backoff after throttles, usage-header pauses. */
                            source_wait_ms: number;
                            started_at: string | null;
                            /** @enum {string} */
                            status: "queued" | "running" | "succeeded" | "failed";
                            trigger: string;
                            waiting_reason: string | null;
                            window: {
                                from: string;
                                to: string;
                            };
                        };
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiFlowsRuns: {
        parameters: {
            query: {
                cursor?: string;
                datastream_id?: string;
                limit?: number;
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        runs: {
                            attempts: number;
                            datastream_id: string;
                            error: string | null;
                            finished_at: string | null;
                            id: string;
                            project_id: string;
                            queued_at: string;
                            retries_exhausted: boolean;
                            rows_read: number;
                            rows_written: number;
                            /** @description Milliseconds the run waited on its source: retry delays it named, backoff after throttles, usage-header pauses. */
                            source_wait_ms: number;
                            started_at: string | null;
                            /** @enum {string} */
                            status: "queued" | "running" | "succeeded" | "failed";
                            trigger: string;
                            waiting_reason: string | null;
                            window: {
                                from: string;
                                to: string;
                            };
                        }[];
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiFlowsUpsert: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    definition: {
                        [key: string]: unknown;
                    };
                    kind: string;
                    /** @description Project id (e.g. proj_marketing), or a console URL naming it. */
                    project_id: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        datastream?: {
                            cadence: string | null;
                            connection_ref_id: string;
                            created_at: string;
                            id: string;
                            name: string;
                            next_run_at: string | null;
                            project_id: string;
                            provider: string;
                            retrieval_window: {
                                lookback_days: number;
                                start_date: string | null;
                            };
                            schedule: {
                                cron: string | null;
                                timezone: string;
                            };
                            /** @enum {string} */
                            schedule_source: "datastream" | "default";
                            timezone: string;
                            updated_at: string;
                        };
                        /** @enum {string} */
                        kind: "datastream" | "report_definition";
                        report_definition?: {
                            created_at: string;
                            definition: {
                                [key: string]: unknown;
                            };
                            id: string;
                            name: string;
                            project_id: string;
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiInsights: {
        parameters: {
            query: {
                cursor?: string;
                date?: string;
                limit?: number;
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiKnowledge: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        knowledge: {
                            id: string;
                            owner: string | null;
                            title: string;
                            topic_id: string;
                            updated_at: string;
                            version_number: number;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiKnowledge: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Markdown. */
                    body_md: string;
                    /** @description Team or person who keeps it current. */
                    owner?: string;
                    /** @description Project id, or a console URL naming it; "default": your only project. */
                    project_id?: string;
                    title: string;
                    /** @description Default: derived from the title. */
                    topic_id?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        author: {
                            at: string;
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            proposal_id: string | null;
                            request_id: string | null;
                            subject: string;
                            via: ("mcp" | "rest" | "console" | "import") | null;
                        };
                        body_md: string;
                        created_at: string;
                        created_by: string;
                        current_version: number;
                        deleted: boolean;
                        id: string;
                        owner: string | null;
                        project_id: string;
                        title: string;
                        topic_id: string;
                        version_number: number;
                    } | {
                        base_version: number | null;
                        key: string;
                        /** @enum {string} */
                        kind: "skill" | "knowledge";
                        next: string;
                        proposal_id: string;
                        /** @constant */
                        status: "pending_review";
                        supersedes: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiKnowledgeTopicId: {
        parameters: {
            query?: {
                project_id?: string;
                version?: number;
            };
            header?: never;
            path: {
                topic_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        author: {
                            at: string;
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            proposal_id: string | null;
                            request_id: string | null;
                            subject: string;
                            via: ("mcp" | "rest" | "console" | "import") | null;
                        };
                        body_md: string;
                        created_at: string;
                        created_by: string;
                        current_version: number;
                        deleted: boolean;
                        id: string;
                        owner: string | null;
                        project_id: string;
                        title: string;
                        topic_id: string;
                        version_number: number;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putApiKnowledgeTopicId: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path: {
                topic_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body_md?: string;
                    owner?: string | null;
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        author: {
                            at: string;
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            proposal_id: string | null;
                            request_id: string | null;
                            subject: string;
                            via: ("mcp" | "rest" | "console" | "import") | null;
                        };
                        body_md: string;
                        created_at: string;
                        created_by: string;
                        current_version: number;
                        deleted: boolean;
                        id: string;
                        owner: string | null;
                        project_id: string;
                        title: string;
                        topic_id: string;
                        version_number: number;
                    } | {
                        base_version: number | null;
                        key: string;
                        /** @enum {string} */
                        kind: "skill" | "knowledge";
                        next: string;
                        proposal_id: string;
                        /** @constant */
                        status: "pending_review";
                        supersedes: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteApiKnowledgeTopicId: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path: {
                topic_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success, no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiKnowledgeTopicIdDiff: {
        parameters: {
            query?: {
                from?: number;
                project_id?: string;
                to?: number;
            };
            header?: never;
            path: {
                topic_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description title and owner, when they differ. */
                        fields: {
                            field: string;
                            from: unknown;
                            to: unknown;
                        }[];
                        from_version: number;
                        to_version: number;
                        topic_id: string;
                        /** @description body_md as a unified diff (diff -u); empty when the bodies are equal. */
                        unified_diff: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiKnowledgeTopicIdRestore: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path: {
                topic_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The version whose content becomes the next version. */
                    version: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        author: {
                            at: string;
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            proposal_id: string | null;
                            request_id: string | null;
                            subject: string;
                            via: ("mcp" | "rest" | "console" | "import") | null;
                        };
                        body_md: string;
                        created_at: string;
                        created_by: string;
                        current_version: number;
                        deleted: boolean;
                        id: string;
                        owner: string | null;
                        project_id: string;
                        title: string;
                        topic_id: string;
                        version_number: number;
                    } | {
                        base_version: number | null;
                        key: string;
                        /** @enum {string} */
                        kind: "skill" | "knowledge";
                        next: string;
                        proposal_id: string;
                        /** @constant */
                        status: "pending_review";
                        supersedes: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiKnowledgeTopicIdVersions: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                project_id?: string;
            };
            header?: never;
            path: {
                topic_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: boolean;
                        next_cursor: string | null;
                        topic_id: string;
                        versions: {
                            author: {
                                at: string;
                                client: {
                                    name: string;
                                    version: string;
                                } | null;
                                proposal_id: string | null;
                                request_id: string | null;
                                subject: string;
                                via: ("mcp" | "rest" | "console" | "import") | null;
                            };
                            created_at: string;
                            created_by: string;
                            owner: string | null;
                            title: string;
                            version_number: number;
                        }[];
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiMoneyRates: {
        parameters: {
            query?: {
                base?: string;
                date?: string;
                symbols?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The base currency: each rate is units of CODE per 1 base. */
                        base: string;
                        /** @description The ECB publication day the rates come from (the last one on or before requested_date). */
                        rate_date: string;
                        rates: {
                            [key: string]: number;
                        };
                        requested_date: string;
                        source: string;
                        /** @description True when rate_date is more than 14 days before requested_date. */
                        stale: boolean;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiMoneyRatesRefresh: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        days_in_feed: number;
                        first_date: string;
                        /** @enum {string} */
                        format: "xml" | "csv" | "csv-zip";
                        last_date: string;
                        latest_rate_date: string;
                        rates_added: number;
                        /** @description Rates the store already had for those days; stored rates are never rewritten. */
                        rates_already_stored: number;
                        /** @description Of those, how many the feed states differently (the stored value was kept). */
                        rates_differing_kept: number;
                        rates_in_feed: number;
                        source: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiOrgAudit: {
        parameters: {
            query?: {
                action?: string;
                actor?: string;
                cursor?: string;
                limit?: number;
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: {
                            action: string;
                            actor: {
                                kind: string;
                                subject: string;
                            };
                            at: string;
                            details: {
                                [key: string]: unknown;
                            };
                            id: number;
                            project_id: string | null;
                            request_id: string;
                            target: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiOrgMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description True when the role acts on every project (operator, admin, owner). */
                        all_projects: boolean;
                        email: string | null;
                        grants: {
                            project_id: string;
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin" | "owner";
                        }[];
                        /** @enum {string} */
                        kind: "operator" | "member" | "token";
                        /** @description What the role and scopes allow at all, on some project. */
                        permissions: string[];
                        /**
                         * @description Organization role.
                         * @enum {string}
                         */
                        role: "viewer" | "editor" | "admin" | "owner";
                        /** @description The token's scopes when it narrowed them; null otherwise. */
                        scopes: string[] | null;
                        subject: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiOrgMembers: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                role?: "viewer" | "editor" | "admin" | "owner";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        members: {
                            created_at: string;
                            created_by: string;
                            email: string | null;
                            grants: {
                                project_id: string;
                                /** @enum {string} */
                                role: "viewer" | "editor" | "admin";
                            }[];
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin" | "owner";
                            subject: string;
                            updated_at: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiOrgMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email?: string;
                    grants?: {
                        /** @description Project id (e.g. proj_marketing), or a console URL naming it. */
                        project_id: string;
                        /**
                         * @default viewer
                         * @enum {string}
                         */
                        role?: "viewer" | "editor" | "admin";
                    }[];
                    /**
                     * @default viewer
                     * @enum {string}
                     */
                    role?: "viewer" | "editor" | "admin" | "owner";
                    /** @description The identity subject (the JWT sub claim). */
                    subject: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created_at: string;
                        created_by: string;
                        email: string | null;
                        grants: {
                            project_id: string;
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin";
                        }[];
                        /** @enum {string} */
                        role: "viewer" | "editor" | "admin" | "owner";
                        subject: string;
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiOrgMembersSubject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subject: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created_at: string;
                        created_by: string;
                        email: string | null;
                        grants: {
                            project_id: string;
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin";
                        }[];
                        /** @enum {string} */
                        role: "viewer" | "editor" | "admin" | "owner";
                        subject: string;
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteApiOrgMembersSubject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subject: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success, no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchApiOrgMembersSubject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subject: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string | null;
                    /** @enum {string} */
                    role?: "viewer" | "editor" | "admin" | "owner";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created_at: string;
                        created_by: string;
                        email: string | null;
                        grants: {
                            project_id: string;
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin";
                        }[];
                        /** @enum {string} */
                        role: "viewer" | "editor" | "admin" | "owner";
                        subject: string;
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiOrgMembersSubjectGrants: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subject: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        grants: {
                            project_id: string;
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin";
                        }[];
                        subject: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putApiOrgMembersSubjectGrants: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                subject: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    grants: {
                        /** @description Project id (e.g. proj_marketing), or a console URL naming it. */
                        project_id: string;
                        /**
                         * @default viewer
                         * @enum {string}
                         */
                        role?: "viewer" | "editor" | "admin";
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        grants: {
                            project_id: string;
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin";
                        }[];
                        subject: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiOrgSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        auth_mode: "disabled" | "static" | "oauth";
                        default_reporting_currency: string;
                        default_timezone: string;
                        id: string;
                        limits: {
                            api_requests_per_minute: number;
                            context_objects_per_project: number;
                            datastreams_per_project: number;
                            members: number;
                            projects: number;
                        };
                        name: string;
                        roles: {
                            description: string;
                            permissions: string[];
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin" | "owner";
                        }[];
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putApiOrgSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    default_reporting_currency?: string;
                    default_timezone?: string;
                    limits?: {
                        api_requests_per_minute?: number;
                        context_objects_per_project?: number;
                        datastreams_per_project?: number;
                        members?: number;
                        projects?: number;
                    };
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        auth_mode: "disabled" | "static" | "oauth";
                        default_reporting_currency: string;
                        default_timezone: string;
                        id: string;
                        limits: {
                            api_requests_per_minute: number;
                            context_objects_per_project: number;
                            datastreams_per_project: number;
                            members: number;
                            projects: number;
                        };
                        name: string;
                        roles: {
                            description: string;
                            permissions: string[];
                            /** @enum {string} */
                            role: "viewer" | "editor" | "admin" | "owner";
                        }[];
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiProjects: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        projects: {
                            /**
                             * @description publish: agent writes become versions at once; review: they become proposals a reviewer approves; off: refused.
                             * @enum {string}
                             */
                            agent_writes: "publish" | "review" | "off";
                            id: string;
                            name: string;
                            reporting_currency: string;
                            timezone: string;
                        }[];
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiProjects: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Project id, e.g. proj_marketing. */
                    id: string;
                    name: string;
                    /** @description Defaults to the organization's reporting currency. */
                    reporting_currency?: string;
                    /** @description Defaults to the organization's timezone; it defines a KPI day. */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description publish: agent writes become versions at once; review: they become proposals a reviewer approves; off: refused.
                         * @enum {string}
                         */
                        agent_writes: "publish" | "review" | "off";
                        id: string;
                        name: string;
                        reporting_currency: string;
                        timezone: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiProjectsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description publish: agent writes become versions at once; review: they become proposals a reviewer approves; off: refused.
                         * @enum {string}
                         */
                        agent_writes: "publish" | "review" | "off";
                        id: string;
                        name: string;
                        reporting_currency: string;
                        timezone: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchApiProjectsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description publish: agent writes become versions at once; review: they become proposals a reviewer approves; off: refused.
                     * @enum {string}
                     */
                    agent_writes?: "publish" | "review" | "off";
                    name?: string;
                    reporting_currency?: string;
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description publish: agent writes become versions at once; review: they become proposals a reviewer approves; off: refused.
                         * @enum {string}
                         */
                        agent_writes: "publish" | "review" | "off";
                        id: string;
                        name: string;
                        reporting_currency: string;
                        timezone: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiProjectsIdExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiProjectsIdImport: {
        parameters: {
            query?: {
                dry_run?: "0" | "1" | "true" | "false";
                propose?: "0" | "1" | "true" | "false";
                prune?: "0" | "1" | "true" | "false";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/gzip": string;
                "application/x-gzip": string;
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether the changes were written (false in a dry run or when nothing changes). */
                        applied: boolean;
                        changes: {
                            /** @enum {string} */
                            action: "create" | "update" | "delete";
                            /** @description The file it comes from; null for a deletion. */
                            file: string | null;
                            /** @enum {string} */
                            kind: "skill" | "knowledge" | "business_key" | "business_link";
                            /** @description Skill name, topic_id, business key, or "<skill|knowledge>:<source> <relation> <key>". */
                            name: string;
                            /** @description Skills and Knowledge: the version written (null in a dry run). */
                            version: number | null;
                        }[];
                        dry_run: boolean;
                        /** @description Files outside the layout (skills/<name>/SKILL.md, knowledge/*.md, taxonomy.yaml): the first 20 met, sorted, each cut to 200 characters; ignored_count counts them all. */
                        ignored: string[];
                        /** @description How many files outside the layout the folder holds. */
                        ignored_count: number;
                        /** @description Objects the folder does not hold, left in place because prune is off. */
                        kept: {
                            business_keys: number;
                            business_links: number;
                            knowledge: number;
                            skills: number;
                        };
                        project_id: string;
                        /** @description With propose: the ids of the proposals created. */
                        proposals: string[];
                        prune: boolean;
                        /** @description Objects in the folder identical to the hub: left alone. */
                        unchanged: {
                            business_keys: number;
                            business_links: number;
                            knowledge: number;
                            skills: number;
                        };
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiProposals: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                project_id?: string;
                status?: "pending" | "approved" | "rejected" | "superseded" | "withdrawn";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        proposals: {
                            author: {
                                client: {
                                    name: string;
                                    version: string;
                                } | null;
                                request_id: string | null;
                                subject: string;
                                /** @enum {string} */
                                via: "mcp" | "rest" | "console" | "import";
                            };
                            base_version: number | null;
                            comment: string | null;
                            created_at: string;
                            decided_at: string | null;
                            decided_by: string | null;
                            fields: {
                                [key: string]: unknown;
                            };
                            id: string;
                            /** @enum {string} */
                            kind: "skill" | "knowledge";
                            name: string | null;
                            project_id: string;
                            published_version: number | null;
                            /** @enum {string} */
                            status: "pending" | "approved" | "rejected" | "superseded" | "withdrawn";
                            superseded_by: string | null;
                            topic_id: string | null;
                        }[];
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiProposalsId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        author: {
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            request_id: string | null;
                            subject: string;
                            /** @enum {string} */
                            via: "mcp" | "rest" | "console" | "import";
                        };
                        base_version: number | null;
                        comment: string | null;
                        created_at: string;
                        current_version: number | null;
                        decided_at: string | null;
                        decided_by: string | null;
                        diff: {
                            against_base: string;
                            against_current: string;
                        };
                        fields: {
                            [key: string]: unknown;
                        };
                        id: string;
                        /** @enum {string} */
                        kind: "skill" | "knowledge";
                        name: string | null;
                        project_id: string;
                        published_version: number | null;
                        stale: boolean;
                        /** @enum {string} */
                        status: "pending" | "approved" | "rejected" | "superseded" | "withdrawn";
                        superseded_by: string | null;
                        topic_id: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiProposalsIdApprove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    comment?: string;
                    /** @description Changes applied on top of the proposed fields before publishing. */
                    edits?: {
                        /** @description Skill only. */
                        acceptance?: string[];
                        body_md?: string;
                        /** @description Skill only. */
                        description?: string;
                        /** @description Skill only. */
                        mdm_references?: string[];
                        /** @description Skill only. */
                        metadata?: {
                            /** @description Legacy: a list of prompt arguments, moved into the body's ## Arguments section. */
                            arguments?: string | unknown[];
                        } & {
                            [key: string]: string;
                        };
                        /** @description Knowledge only. */
                        owner?: string | null;
                        /** @description Knowledge only. */
                        title?: string;
                    };
                    /** @description Publish even though the object has a newer version than the proposal was based on. */
                    rebase?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        author: {
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            request_id: string | null;
                            subject: string;
                            /** @enum {string} */
                            via: "mcp" | "rest" | "console" | "import";
                        };
                        base_version: number | null;
                        comment: string | null;
                        created_at: string;
                        current_version: number | null;
                        decided_at: string | null;
                        decided_by: string | null;
                        diff: {
                            against_base: string;
                            against_current: string;
                        };
                        fields: {
                            [key: string]: unknown;
                        };
                        id: string;
                        /** @enum {string} */
                        kind: "skill" | "knowledge";
                        name: string | null;
                        project_id: string;
                        published_version: number | null;
                        stale: boolean;
                        /** @enum {string} */
                        status: "pending" | "approved" | "rejected" | "superseded" | "withdrawn";
                        superseded_by: string | null;
                        topic_id: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiProposalsIdReject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why; the author reads it with get_proposal. */
                    comment: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        author: {
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            request_id: string | null;
                            subject: string;
                            /** @enum {string} */
                            via: "mcp" | "rest" | "console" | "import";
                        };
                        base_version: number | null;
                        comment: string | null;
                        created_at: string;
                        current_version: number | null;
                        decided_at: string | null;
                        decided_by: string | null;
                        diff: {
                            against_base: string;
                            against_current: string;
                        };
                        fields: {
                            [key: string]: unknown;
                        };
                        id: string;
                        /** @enum {string} */
                        kind: "skill" | "knowledge";
                        name: string | null;
                        project_id: string;
                        published_version: number | null;
                        stale: boolean;
                        /** @enum {string} */
                        status: "pending" | "approved" | "rejected" | "superseded" | "withdrawn";
                        superseded_by: string | null;
                        topic_id: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiProposalsIdWithdraw: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        author: {
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            request_id: string | null;
                            subject: string;
                            /** @enum {string} */
                            via: "mcp" | "rest" | "console" | "import";
                        };
                        base_version: number | null;
                        comment: string | null;
                        created_at: string;
                        current_version: number | null;
                        decided_at: string | null;
                        decided_by: string | null;
                        diff: {
                            against_base: string;
                            against_current: string;
                        };
                        fields: {
                            [key: string]: unknown;
                        };
                        id: string;
                        /** @enum {string} */
                        kind: "skill" | "knowledge";
                        name: string | null;
                        project_id: string;
                        published_version: number | null;
                        stale: boolean;
                        /** @enum {string} */
                        status: "pending" | "approved" | "rejected" | "superseded" | "withdrawn";
                        superseded_by: string | null;
                        topic_id: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        providers: {
                            /** @description JSON Schema of config (as it is sent). */
                            config_schema: {
                                [key: string]: unknown;
                            };
                            description: string;
                            name: string;
                            /** @description Whether a connection may take its credentials from Nango (config.nango). */
                            nango: boolean;
                            /** @description JSON Schema of the secrets a Nango connection still stores here, when there are any. */
                            nango_secrets_schema?: {
                                [key: string]: unknown;
                            };
                            /** @description JSON Schema of secrets (as they are sent). */
                            secrets_schema: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiReportsRun: {
        parameters: {
            query: {
                limit?: number;
                name: string;
                project_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiSearch: {
        parameters: {
            query: {
                explain?: "true" | "false";
                limit?: number;
                project_id?: string;
                q: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description Why nothing was found: no letters or digits, only stop words, or no document holds the words.
                         * @enum {string}
                         */
                        empty_reason?: "no_words" | "only_stop_words" | "no_match";
                        hits: {
                            explain?: {
                                bm25f: number;
                                boosts: {
                                    /** @enum {string} */
                                    kind: "graph";
                                    score: number;
                                    via: string;
                                }[];
                                /** @description N: documents of every kind in the project. */
                                documents: number;
                                /** @description The final score: bm25f plus every boost, rounded to 6 decimals. */
                                score: number;
                                terms: {
                                    fields: {
                                        [key: string]: {
                                            length: number;
                                            tf: number;
                                        };
                                    };
                                    idf: number;
                                    score: number;
                                    /** @description Trigram similarity of the two: the part is scaled by it. */
                                    similarity?: number;
                                    /** @description The stem scored. */
                                    term: string;
                                    /** @description The stem asked for, which no document holds. */
                                    typo_of?: string;
                                }[];
                            };
                            id: string;
                            key: string;
                            /** @enum {string} */
                            kind: "skill" | "knowledge" | "business_key";
                            /** @description The fields a question stem occurs in and the stems (empty for a graph neighbour only). */
                            matched: {
                                fields: string[];
                                words: string[];
                            };
                            next: {
                                arguments: {
                                    [key: string]: unknown;
                                };
                                tool: string;
                            };
                            score: number;
                            snippet: string;
                            /** @enum {string} */
                            tier: "title" | "description" | "graph-neighbor";
                            title: string;
                        }[];
                        /** @description Distinct stems beyond the 64 that count. */
                        ignored_words: number;
                        query: string;
                        /** @description The text lines search_context gives an agent (the envelope's summary). */
                        summary: string[];
                        tiers: {
                            description: number;
                            "graph-neighbor": number;
                            title: number;
                        };
                        total: number;
                        /** @description True when a stem of the question is held by more documents than enter the candidates (the best by term impact); total then counts the candidates. */
                        total_is_lower_bound: boolean;
                        truncated: boolean;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiSkills: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next_cursor: string | null;
                        skills: {
                            description: string;
                            id: string;
                            mdm_references: string[];
                            name: string;
                            updated_at: string;
                            version: number;
                        }[];
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiSkills: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Replaces the Acceptance list of the body. */
                    acceptance?: string[];
                    /** @description Markdown. */
                    body_md: string;
                    /** @description What the procedure is for and when to use it. */
                    description: string;
                    /** @description Business keys besides the [[key]] ones in the body. */
                    mdm_references?: string[];
                    /** @description SKILL.md metadata: string values (Agent Skills format). A legacy `arguments` list is moved into the body as an `## Arguments` section (docs/mcp.md, Prompts). */
                    metadata?: {
                        /** @description Legacy: a list of prompt arguments, moved into the body's ## Arguments section. */
                        arguments?: string | unknown[];
                    } & {
                        [key: string]: string;
                    };
                    /** @description Skill name, e.g. investigate-roas-drop. */
                    name: string;
                    /** @description Project id, or a console URL naming it; "default": your only project. */
                    project_id?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        acceptance: string[];
                        author: {
                            at: string;
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            proposal_id: string | null;
                            request_id: string | null;
                            subject: string;
                            via: ("mcp" | "rest" | "console" | "import") | null;
                        };
                        body_md: string;
                        created_at: string;
                        created_by: string;
                        current_version: number;
                        deleted: boolean;
                        description: string;
                        id: string;
                        mdm_references: string[];
                        metadata: {
                            [key: string]: unknown;
                        };
                        name: string;
                        project_id: string;
                        steps: {
                            index: number;
                            instruction: string;
                            title: string;
                        }[];
                        unresolved_references: string[];
                        version: number;
                    } | {
                        base_version: number | null;
                        key: string;
                        /** @enum {string} */
                        kind: "skill" | "knowledge";
                        next: string;
                        proposal_id: string;
                        /** @constant */
                        status: "pending_review";
                        supersedes: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiSkillsName: {
        parameters: {
            query?: {
                project_id?: string;
                version?: number;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        acceptance: string[];
                        author: {
                            at: string;
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            proposal_id: string | null;
                            request_id: string | null;
                            subject: string;
                            via: ("mcp" | "rest" | "console" | "import") | null;
                        };
                        body_md: string;
                        created_at: string;
                        created_by: string;
                        current_version: number;
                        deleted: boolean;
                        description: string;
                        id: string;
                        mdm_references: string[];
                        metadata: {
                            [key: string]: unknown;
                        };
                        name: string;
                        project_id: string;
                        steps: {
                            index: number;
                            instruction: string;
                            title: string;
                        }[];
                        unresolved_references: string[];
                        version: number;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putApiSkillsName: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    acceptance?: string[];
                    body_md?: string;
                    description?: string;
                    mdm_references?: string[];
                    metadata?: {
                        /** @description Legacy: a list of prompt arguments, moved into the body's ## Arguments section. */
                        arguments?: string | unknown[];
                    } & {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        acceptance: string[];
                        author: {
                            at: string;
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            proposal_id: string | null;
                            request_id: string | null;
                            subject: string;
                            via: ("mcp" | "rest" | "console" | "import") | null;
                        };
                        body_md: string;
                        created_at: string;
                        created_by: string;
                        current_version: number;
                        deleted: boolean;
                        description: string;
                        id: string;
                        mdm_references: string[];
                        metadata: {
                            [key: string]: unknown;
                        };
                        name: string;
                        project_id: string;
                        steps: {
                            index: number;
                            instruction: string;
                            title: string;
                        }[];
                        unresolved_references: string[];
                        version: number;
                    } | {
                        base_version: number | null;
                        key: string;
                        /** @enum {string} */
                        kind: "skill" | "knowledge";
                        next: string;
                        proposal_id: string;
                        /** @constant */
                        status: "pending_review";
                        supersedes: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteApiSkillsName: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success, no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiSkillsNameDiff: {
        parameters: {
            query?: {
                from?: number;
                project_id?: string;
                to?: number;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        acceptance: {
                            added: string[];
                            removed: string[];
                            /** @description Items in both versions whose order changed. */
                            reordered: boolean;
                        };
                        /** @description description and metadata, when they differ. */
                        fields: {
                            field: string;
                            from: unknown;
                            to: unknown;
                        }[];
                        from_version: number;
                        name: string;
                        /** @description Business keys (mdm_references). */
                        references: {
                            added: string[];
                            removed: string[];
                            /** @description Items in both versions whose order changed. */
                            reordered: boolean;
                        };
                        /** @description Parsed steps added, removed, changed (same title) or moved. */
                        steps: {
                            /** @enum {string} */
                            change: "added" | "removed" | "changed" | "moved";
                            from_index: number | null;
                            from_instruction: string | null;
                            title: string;
                            to_index: number | null;
                            to_instruction: string | null;
                        }[];
                        to_version: number;
                        /** @description body_md as a unified diff (diff -u); empty when the bodies are equal. */
                        unified_diff: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiSkillsNamePrompt: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        arguments: {
                            /**
                             * @description The kind of value completion/complete offers.
                             * @enum {string}
                             */
                            complete?: "project" | "skill" | "topic" | "business_key" | "metric" | "channel" | "run";
                            description?: string;
                            name: string;
                            required: boolean;
                        }[];
                        description: string;
                        /** @description The prompt name (the Skill name): clients show it as a slash command. */
                        name: string;
                        /** @description Your projects that hold a Skill of this name: one prompt serves them all. */
                        projects: string[];
                        /** @description The body's first heading, else the name in words. */
                        title: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiSkillsNameRestore: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The version whose content becomes the next version. */
                    version: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        acceptance: string[];
                        author: {
                            at: string;
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            proposal_id: string | null;
                            request_id: string | null;
                            subject: string;
                            via: ("mcp" | "rest" | "console" | "import") | null;
                        };
                        body_md: string;
                        created_at: string;
                        created_by: string;
                        current_version: number;
                        deleted: boolean;
                        description: string;
                        id: string;
                        mdm_references: string[];
                        metadata: {
                            [key: string]: unknown;
                        };
                        name: string;
                        project_id: string;
                        steps: {
                            index: number;
                            instruction: string;
                            title: string;
                        }[];
                        unresolved_references: string[];
                        version: number;
                    } | {
                        base_version: number | null;
                        key: string;
                        /** @enum {string} */
                        kind: "skill" | "knowledge";
                        next: string;
                        proposal_id: string;
                        /** @constant */
                        status: "pending_review";
                        supersedes: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiSkillsNameSKILLMd: {
        parameters: {
            query?: {
                project_id?: string;
                version?: number;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/markdown": string;
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiSkillsNameVersions: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                project_id?: string;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: boolean;
                        name: string;
                        next_cursor: string | null;
                        versions: {
                            author: {
                                at: string;
                                client: {
                                    name: string;
                                    version: string;
                                } | null;
                                proposal_id: string | null;
                                request_id: string | null;
                                subject: string;
                                via: ("mcp" | "rest" | "console" | "import") | null;
                            };
                            created_at: string;
                            created_by: string;
                            description: string;
                            step_count: number;
                            version: number;
                        }[];
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiSkillsImport: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "text/markdown": string;
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        acceptance: string[];
                        author: {
                            at: string;
                            client: {
                                name: string;
                                version: string;
                            } | null;
                            proposal_id: string | null;
                            request_id: string | null;
                            subject: string;
                            via: ("mcp" | "rest" | "console" | "import") | null;
                        };
                        body_md: string;
                        created_at: string;
                        created_by: string;
                        current_version: number;
                        deleted: boolean;
                        description: string;
                        id: string;
                        mdm_references: string[];
                        metadata: {
                            [key: string]: unknown;
                        };
                        name: string;
                        project_id: string;
                        steps: {
                            index: number;
                            instruction: string;
                            title: string;
                        }[];
                        unresolved_references: string[];
                        version: number;
                    } | {
                        base_version: number | null;
                        key: string;
                        /** @enum {string} */
                        kind: "skill" | "knowledge";
                        next: string;
                        proposal_id: string;
                        /** @constant */
                        status: "pending_review";
                        supersedes: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiSkillsParse: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    acceptance?: string[];
                    body_md: string;
                    mdm_references?: string[];
                    /** @description Project id, or a console URL naming it; "default": your only project. */
                    project_id?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        acceptance: string[];
                        mdm_references: string[];
                        steps: {
                            index: number;
                            instruction: string;
                            title: string;
                        }[];
                        /** @description Referenced keys the project taxonomy does not hold. */
                        unresolved_references: string[];
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiTaxonomy: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        key_count: number;
                        project_id: string;
                        roots: components["schemas"]["getApiTaxonomy_response_schema0"][];
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiTaxonomyKeys: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                project_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: {
                            description: string | null;
                            key: string;
                            label: string;
                            parent: string | null;
                            synonyms: string[];
                            updated_at: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postApiTaxonomyKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    /** @description Business key, e.g. kpi.roas. */
                    key: string;
                    label: string;
                    /** @description The parent key; it must exist. */
                    parent?: string | null;
                    /** @description Project id, or a console URL naming it; "default": your only project. */
                    project_id?: string;
                    synonyms?: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        description: string | null;
                        key: string;
                        label: string;
                        parent: string | null;
                        synonyms: string[];
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getApiTaxonomyKeysKey: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path: {
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        description: string | null;
                        key: string;
                        label: string;
                        parent: string | null;
                        synonyms: string[];
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putApiTaxonomyKeysKey: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path: {
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    label?: string;
                    /** @description null makes the key a root. */
                    parent?: string | null;
                    synonyms?: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        description: string | null;
                        key: string;
                        label: string;
                        parent: string | null;
                        synonyms: string[];
                        updated_at: string;
                    };
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteApiTaxonomyKeysKey: {
        parameters: {
            query?: {
                project_id?: string;
            };
            header?: never;
            path: {
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success, no content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Problem */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
