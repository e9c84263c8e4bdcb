"""The app's frame: session state, theme and display modes, browser history, announcements, warm threads."""
