"""The adapters: the Discord client and its features, embeds and views, the command line and the console."""
