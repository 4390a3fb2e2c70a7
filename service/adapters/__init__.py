"""Where arbiter meets its stores: store URLs, recorders, group commit, backups, the read models' tables."""
