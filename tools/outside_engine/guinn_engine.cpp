// A thin wrapper that makes GuiNN Checkers' engine (Jonathan Kreuzer,
// https://github.com/jonkr2/GuiNN_Checkers) speak tallyho's engine-mode
// protocol (README, "Engine mode"), so that examples/draughts_match.rs can
// play it. It is built with GuiNN's own source by tools/outside_engine/build.sh
// and calls only GuiNN's engine functions: Engine::Init, the 4-piece
// database loader, MoveList and ComputerMove (and reads its search counts).
//
//   position startpos|fen FEN [moves M1 M2 ...]   sets the game and its past
//   go movetime MS | go depth N                    answers info depth D nodes N,
//                                                  then bestmove M
//   newgame, isready, quit
//
// It runs on one thread (GuiNN's search has no other) and reads its net
// (Nets206.gnn) and database (database.jef) from the directory it lives in.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine.h"
#include "checkersGui.h"
#include "registry.h"

// ---- What GuiNN's engine files link against but this program never uses:
// its Windows GUI, the registry, and the status line.
CheckersGUI GUI;
bool WindowsGUI::Init(HINSTANCE) { return false; }
void WindowsGUI::ComputerGo() {}
void WindowsGUI::ProcessMenuCommand(WORD, HWND) {}
void WindowsGUI::SetComputerColor(eColor) {}
void WindowsGUI::SetSearchDepth(int) {}
void WindowsGUI::SetSearchTime(float) {}
void WindowsGUI::CopyPosition() {}
void WindowsGUI::CopyTranscript() {}
void WindowsGUI::DoGameMove(Move) {}
void WindowsGUI::ThinkingMenuActive(bool) {}
void WindowsGUI::ShowErrorPopup(const char* text) { std::fprintf(stderr, "%s\n", text); }
bool CheckersGUI::Init(HINSTANCE) { return false; }
void CheckersGUI::PastePosition() {}
void CheckersGUI::PasteTranscript() {}
std::string CheckersGUI::GetTranscriptFileType() { return ""; }
void CheckersGUI::get_eval_string(const Board&, std::string& evalstr) { evalstr.clear(); }
void CheckersGUI::DisplayEvaluation(const Board&) {}
void CheckersGUI::ClearSelection() {}
void CheckersGUI::OnClickSquare(int, eMouseButton) {}
void CheckersGUI::LoadPieceBitmaps(HINSTANCE) {}
void CheckersGUI::DrawSquare(HDC, const Board&, int, int, int, int) {}
void CheckersGUI::InitMenuItems(HMENU) {}
void CheckersGUI::ProcessMenuCommand(WORD, HWND) {}
void DisplayText(const char*) {}
int get_hashsize(int*) { return 0; }
int get_book_setting(int*) { return 0; }
int get_dbpath(char*, int) { return 0; }
int get_enable_wld(int*) { return 0; }
int get_dbmbytes(int*) { return 0; }
int get_max_dbpieces(int*) { return 0; }
void save_hashsize(int) {}
void save_book_setting(int) {}
void save_dbpath(char*) {}
void save_enable_wld(int) {}
void save_dbmbytes(int) {}
void save_max_dbpieces(int) {}

namespace {

int play_now = 0;

// Every square a move visits, in standard numbering (1-32): its start, then
// each landing.
std::vector<int> path_of(const Move& move) {
    std::vector<int> path{StandardSquare(move.Src()), StandardSquare(move.Dst())};
    int sq = move.Dst();
    for (int i = 0; i + 1 < move.JumpLen(); i++) {
        sq += JumpAddDir[move.Dir(i)];
        path.push_back(StandardSquare(sq));
    }
    return path;
}

std::string text_of(const Move& move) {
    std::vector<int> path = path_of(move);
    const char* sep = move.JumpLen() > 0 ? "x" : "-";
    std::string text = std::to_string(path[0]);
    for (size_t i = 1; i < path.size(); i++) text += sep + std::to_string(path[i]);
    return text;
}

// The legal move the text names: every landing (`11x18x25`), or only the
// start and the end when that is unambiguous (`11x25`).
bool find_move(Board& board, const std::string& text, Move& found) {
    std::vector<int> squares;
    std::string number;
    for (char c : text + "-") {
        if (c >= '0' && c <= '9') {
            number += c;
        } else if ((c == '-' || c == 'x') && !number.empty() && number.size() < 3) {
            squares.push_back(std::stoi(number));
            number.clear();
        } else {
            return false;
        }
    }
    if (squares.size() < 2) return false;
    MoveList moves;
    moves.FindMoves(board);
    int matches = 0;
    for (int i = 0; i < moves.numMoves; i++) {
        std::vector<int> path = path_of(moves.moves[i]);
        bool ends = path.front() == squares.front() && path.back() == squares.back();
        if (path == squares || (squares.size() == 2 && ends)) {
            found = moves.moves[i];
            matches++;
        }
    }
    return matches == 1;
}

// `position startpos|fen FEN [moves ...]`: the game's start and moves go into
// GuiNN's transcript, which it replays for its repetition history. A line
// with a fault changes nothing.
std::string set_position(std::istringstream& words) {
    std::string word;
    Board start = Board::StartPosition();
    words >> word;
    if (word == "fen") {
        std::string fen;
        words >> fen;
        if (fen.empty()) return "error bad FEN";
        // Board::FromString reads one character past a final digit: the
        // full stop PDN allows there ends its loop first.
        fen += ".";
        fen.append(4, '\0');
        if (!start.FromString(&fen[0])) return "error bad FEN";
    } else if (word != "startpos") {
        return "error position wants startpos or fen";
    }
    start.hashKey = start.CalcHashKey();
    Board board = start;
    static Transcript game;
    game.Init(start);
    if (words >> word) {
        if (word != "moves") return "error expected moves";
        while (words >> word) {
            Move move;
            if (game.numMoves + 1 >= MAX_GAMEMOVES) return "error too many moves";
            if (!find_move(board, word, move)) return "error illegal move " + word;
            board.DoMove(move);
            game.AddMove(move);
        }
    }
    engine.transcript = game;
    engine.transcript.ReplayGame(engine.board, engine.boardHashHistory);
    return "";
}

std::string go(std::istringstream& words) {
    std::string kind;
    long value = -1;
    words >> kind >> value;
    if (value < 0) return "error go wants movetime MS or depth N";
    if (kind == "movetime") {
        engine.searchLimits.maxDepth = EXPERT_DEPTH;
        engine.searchLimits.maxSeconds = static_cast<float>(value) / 1000.0f;
    } else if (kind == "depth") {
        engine.searchLimits.maxDepth = static_cast<int>(std::min(value, (long)MAX_SEARCHDEPTH - 8));
        engine.searchLimits.maxSeconds = 86400.0f;
    } else {
        return "error go wants movetime MS or depth N";
    }
    // As CheckerBoard's "exact time" asks: never past the time given.
    engine.searchLimits.bEndHard = true;
    engine.searchLimits.newIterationMaxTime = engine.searchLimits.maxSeconds;
    engine.computerColor = engine.board.sideToMove;
    Board board = engine.board;
    BestMoveInfo best = ComputerMove(board, engine.searchThreadData);
    if (best.move == NO_MOVE) return "bestmove none";
    // The depth GuiNN was searching when it stopped (it deepens two plies at
    // a time), and the positions it visited; its score is in its own units.
    const SearchInfo& info = engine.searchThreadData.displayInfo;
    return "info depth " + std::to_string(info.depth) + " nodes " +
           std::to_string(info.nodes) + "\nbestmove " + text_of(best.move);
}

// The directory this program lives in, where the build left the net and the
// database.
void enter_own_directory() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    if (n <= 0) return;
    std::string path(buf, static_cast<size_t>(n));
    size_t slash = path.rfind('/');
    if (slash != std::string::npos && chdir(path.substr(0, slash).c_str()) != 0) {
        std::perror("chdir");
    }
}

}  // namespace

int main() {
    enter_own_directory();
    // As under CheckerBoard: no thinking thread, no window.
    checkerBoard.bActive = true;
    checkerBoard.pbPlayNow = &play_now;
    engine.Init(nullptr);
    InitializeGuiDatabases(engine.dbInfo);
    int nets = 0;
    for (auto net : engine.evalNets) nets += net->isLoaded ? 1 : 0;
    if (nets == 0) {
        std::fprintf(stderr, "guinn_engine: no neural net loaded (Nets206.gnn)\n");
        return 1;
    }
    std::fprintf(stderr, "guinn_engine: %s, %d nets, 4-piece database %s, book %s\n", g_VersionName,
                 nets, engine.dbInfo.loaded ? "loaded" : "missing",
                 engine.openingBook->m_nPositions > 0 ? "loaded" : "none");

    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::string command, reply;
        words >> command;
        if (command.empty()) continue;
        if (command == "quit") break;
        if (command == "isready") {
            reply = "readyok";
        } else if (command == "newgame") {
            engine.TTable.Clear();
            engine.NewGame(Board::StartPosition(), true);
        } else if (command == "position") {
            reply = set_position(words);
        } else if (command == "go") {
            reply = go(words);
        } else {
            reply = "error unknown command " + command;
        }
        if (!reply.empty()) std::cout << reply << std::endl;
    }
    return 0;
}
