"""The plugin's one bridge to the engine: the process runner, the worker client, layer exchange,
the vocabulary the engine describes, and the plugin icon. It imports nothing else of the plugin."""
