"""The domain: records, reading them, extracting errors from pastes, matching, mining, redaction."""
