vcl 4.1;
# Varnish in front of the API (tested by test/process/varnish-purge.test.ts, which runs this very
# file with its backend port substituted): caches what the API marks cacheable, purges by tag, and
# never replays one client's rate limit headers to another.
#
# Purge: the process that commits new data (the INGEST_FOLLOW leader, or `npm run ingest`) with
# CACHE_PURGE_URL=http://<varnish>/ sends `PURGE /` with the changed data's tags, space-separated,
# in `Surrogate-Key` (e.g. `prices:DE_LU prices:all flows:DE_LU flows:all ...`). Every answer
# carries its own tags in `Surrogate-Key` (e.g. `prices prices:DE_LU`); a PURGE bans the cached
# objects sharing a tag with it. Only the addresses in `purgers` may purge.
#
# Rate limits: RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset describe the bucket of the
# client that caused the backend request; a cached copy must not tell them to another client, so
# they are removed from every hit (a miss passes the backend's, which are the caller's own).

backend app {
    .host = "127.0.0.1";
    .port = "4000";
}

acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (req.http.Surrogate-Key !~ "^[A-Za-z0-9_:>-]+( [A-Za-z0-9_:>-]+)*$") {
            return (synth(400, "Surrogate-Key: space-separated tags"));
        }
        ban("obj.http.Surrogate-Key ~ (^|\s)(" + regsuball(req.http.Surrogate-Key, " ", "|") + ")(\s|$)");
        return (synth(200, "Purged"));
    }
}

sub vcl_deliver {
    if (obj.hits > 0) {
        unset resp.http.RateLimit-Limit;
        unset resp.http.RateLimit-Remaining;
        unset resp.http.RateLimit-Reset;
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
}
