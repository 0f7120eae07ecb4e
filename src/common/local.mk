# common: helpers shared by the tools (messages, exit status, patterns).
