-- PostgreSQL only (its webhook notifications now come only from rows actually written); the
-- embedded store wakes its worker in process. Kept so both stores share one schema version.
SELECT 1;
