"""The browser pages: lobby, table, replay, audit, disputes, desk, tournaments, rules, balance report."""
