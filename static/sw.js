const VERSION = "__VERSION__";
