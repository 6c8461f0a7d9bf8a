#pragma once

#include <QObject>

namespace dspark::ui {

// For a widget's destructor: QWidget's own destructor hides and deletes the children only after the
// derived class's members are gone, and a child that emits then (a selection model clearing its current
// row as its model goes) would reach a half-destroyed owner. Cuts every child's (grandchildren too)
// connections to `owner`; call it first in the destructor of the class whose slots read members.
inline void disconnectChildren(QObject* owner)
{
    for (QObject* child : owner->findChildren<QObject*>())
        child->disconnect(owner);
}

} // namespace dspark::ui
