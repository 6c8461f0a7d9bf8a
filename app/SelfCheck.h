#pragma once

namespace dspark::ui {
class MainWindow;
}

namespace dspark {

// `--self-check`: when the window's profile has loaded (or failed to), prints what the window shows
// as JSON on stdout (title, menus, status, translations in use) and ends the event loop with 0 when
// it loaded, 1 when not. Checks an installation without anyone looking at the screen.
void watchSelfCheck(ui::MainWindow& window);

} // namespace dspark
