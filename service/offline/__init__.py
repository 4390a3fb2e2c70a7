"""Recorded games without a server: record files and archives, bulk import, self-play, balance reports."""
