//! tilebag-accounts: players online, as pure rules (no I/O; time comes in as values).
