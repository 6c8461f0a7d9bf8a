// Sessions: an opened profile with what is derived from it. A selection carries its session and never
// resolves in another; two timelines given one zoom move together, each with its own time offset; the
// annotations edited in the window are the session's.
#include "MainWindowTestSupport.h"
#include "SyntheticProfile.h"

#include "overlays/AnnotationOverlay.h"
#include "panels/EventDetailsPane.h"
#include "report/ReportActions.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "timeline/TimelineZoom.h"

#include <QApplication>
#include <QFile>
#include <QTest>

using namespace dspark;
using namespace dspark::ui;

namespace {

uint32_t laneNamed(const Profile& p, const std::string& process, const std::string& name)
{
    for (uint32_t i = 0; i < p.lanes.size(); ++i)
        if (p.lanes[i].info.process == process && p.lanes[i].info.name == name)
            return i;
    return UINT32_MAX;
}

std::shared_ptr<Profile> profileWithSpacing(TimeNs spacingNs)
{
    test::SyntheticSpec spec;
    spec.kernelsPerStream = 400;
    spec.kernelSpacingNs = spacingNs;
    auto p = test::makeSyntheticProfile(spec);
    return p;
}

} // namespace

class TestSessions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_sessions")); }

    void aSessionResolvesOnlyItsOwnEvents()
    {
        const ProfileSession a(profileWithSpacing(1000));
        const ProfileSession b(profileWithSpacing(2000));
        QVERIFY(a.id() != 0 && b.id() != 0 && a.id() != b.id());
        const uint32_t lane = laneNamed(*a.profile(), "Ascend Hardware", "Stream 2");
        QVERIFY(lane != UINT32_MAX);
        const EventRef e{lane, 5};
        // The same address is a valid event in both profiles: only the session tells them apart.
        QVERIFY(e.index < b.profile()->lanes[lane].size());
        QCOMPARE(a.resolve(a.tag(e)), e);
        QVERIFY(!a.resolve(b.tag(e)).valid());
        QVERIFY(!b.resolve(a.tag(e)).valid());
        QVERIFY(!a.resolve({}).valid());
        QVERIFY(!a.resolve(a.tag({lane, 400})).valid()); // past the lane's end
        QVERIFY(!a.resolve(a.tag({uint32_t(a.profile()->lanes.size()), 0})).valid());
        // A session's step records share the profile's lifetime; its analyses are its own.
        QVERIFY(a.analyses() != b.analyses());
        QCOMPARE(a.analyses()->profile(), a.profile().get());
        QCOMPARE(a.path(), QStringLiteral("/synthetic"));
    }

    void theWindowRefusesASelectionFromAnotherSession()
    {
        auto w = test::openMainWindow({1200, 800});
        QVERIFY(w);
        const auto pa = profileWithSpacing(1000);
        const auto pb = profileWithSpacing(2000);
        w->setProfile(pa, QStringLiteral("/a"));
        QCOMPARE(w->sessions().size(), size_t(1));
        ProfileSession* a = w->session();
        QVERIFY(a);
        QCOMPARE(a->profile().get(), pa.get());
        QCOMPARE(w->reports()->analyses(), a->analyses());

        const uint32_t lane = laneNamed(*pa, "Ascend Hardware", "Stream 2");
        const EventRef e{lane, 7};
        const ProfileSession other(pb);
        QVERIFY(!w->selectEvent(other.tag(e)));
        QVERIFY(!w->timeline()->selection()->event().valid());
        QVERIFY(!w->detailsPane()->event().valid());

        QVERIFY(w->selectEvent(a->tag(e)));
        QCOMPARE(w->timeline()->selection()->event(), e);
        QCOMPARE(w->detailsPane()->event(), e);

        // Another profile opened: a new session; the old one's selection no longer resolves.
        const SessionEvent old = a->tag({lane, 9});
        w->setProfile(pb, QStringLiteral("/b"));
        QCOMPARE(w->sessions().size(), size_t(1));
        QVERIFY(w->session()->id() != old.session);
        QVERIFY(!w->selectEvent(old));
        QVERIFY(!w->timeline()->selection()->event().valid());
        QVERIFY(w->selectEvent(w->session()->tag({lane, 9})));
        QCOMPARE(w->detailsPane()->event(), (EventRef{lane, 9}));

        w->setProfile(nullptr);
        QVERIFY(w->sessions().empty());
        QVERIFY(!w->session());
        QVERIFY(!w->selectEvent(old));
    }

    void annotationsEditedInTheWindowAreTheSessions()
    {
        auto w = test::openMainWindow({1200, 800});
        QVERIFY(w);
        const auto p = profileWithSpacing(1000);
        p->rootPath = "/synthetic-sessions"; // its own saved annotations
        QFile::remove(annotationSessionPath(*p));
        w->setProfile(p);
        QCOMPARE(w->session()->annotations().items.size(), qsizetype(0));
        Annotation note;
        note.startNs = note.endNs = p->firstNs() + 1000;
        note.text = QStringLiteral("here");
        w->reports()->annotations()->add(note);
        QCOMPARE(w->session()->annotations().items.size(), qsizetype(1));
        QCOMPARE(w->session()->annotations().items[0].text, QStringLiteral("here"));
        w->reports()->annotations()->remove(0);
        QCOMPARE(w->session()->annotations().items.size(), qsizetype(0));
        QFile::remove(annotationSessionPath(*p));
    }

    void twoTimelinesGivenOneZoomMoveTogetherWithTheirOffsets()
    {
        const auto pa = profileWithSpacing(1000);
        const auto pb = profileWithSpacing(1000);
        const TimeNs offset = -250'000; // B's clock runs 250 µs ahead: shared = B time - 250 µs
        TimelineZoom zoom;
        zoom.setBounds(pa->firstNs(), pa->lastNs());
        QWidget host;
        host.resize(1200, 800);
        auto* top = new TimelineWidget(&host, &zoom);
        auto* bottom = new TimelineWidget(&host, &zoom);
        top->setGeometry(0, 0, 1200, 400);
        bottom->setGeometry(0, 400, 1200, 400);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        top->setProfile(pa);
        bottom->setProfile(pb);
        bottom->setTimeOffsetNs(offset);
        QVERIFY(!top->ownsZoom() && !bottom->ownsZoom());
        // Setting a profile leaves a shared zoom's bounds to its owner.
        QCOMPARE(zoom.boundsStartNs(), pa->firstNs());

        const TimeNs a = pa->firstNs() + 100'000;
        zoom.setRange(a, a + 20'000);
        QApplication::processEvents();
        QCOMPARE(top->scale().startNs, a);
        QCOMPARE(bottom->scale().startNs, a - offset);
        QCOMPARE(bottom->visibleStartNs(), a - offset);
        QCOMPARE(bottom->scale().spanNs(), top->scale().spanNs());

        // A key on the lower timeline zooms both: the centre stays put on each.
        bottom->view()->setFocus();
        QTest::keyClick(bottom->view(), Qt::Key_W);
        zoom.endGesture();
        QApplication::processEvents();
        QVERIFY(top->scale().spanNs() < 20'000);
        QCOMPARE(bottom->scale().spanNs(), top->scale().spanNs());
        QCOMPARE(bottom->scale().startNs - top->scale().startNs, -offset);
        QCOMPARE(top->visibleStartNs() + top->scale().spanNs() / 2, a + 10'000);

        // Zooming the lower timeline to one of its events shows that event on both, at one place.
        const uint32_t lane = laneNamed(*pb, "Ascend Hardware", "Stream 2");
        const EventRef k{lane, 300};
        bottom->zoomToEvent(k);
        QApplication::processEvents();
        const TimeNs mid = pb->startNs(k) + pb->lanes[lane].durationNs[k.index] / 2;
        const TimeNs bottomMid = bottom->scale().startNs + bottom->scale().spanNs() / 2;
        QVERIFY(std::abs(bottomMid - mid) <= 1);
        QCOMPARE(zoom.startNs() + zoom.spanNs() / 2, bottomMid + offset);
        // The offset moves only that timeline.
        const TimeNs topStart = top->scale().startNs;
        bottom->setTimeOffsetNs(0);
        QCOMPARE(top->scale().startNs, topStart);
        QCOMPARE(bottom->scale().startNs, topStart);
    }
};

QTEST_MAIN(TestSessions)
#include "tst_sessions.moc"
