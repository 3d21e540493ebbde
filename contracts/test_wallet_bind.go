// Code generated - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package contracts

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"time"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/event"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = errors.New
	_ = big.NewInt
	_ = strings.NewReader
	_ = ethereum.NotFound
	_ = bind.Bind
	_ = common.Big1
	_ = types.BloomLookup
	_ = event.NewSubscription
	_ = abi.ConvertType
	_ = time.Tick
	_ = context.Background
)

// TestWalletMetaData contains all meta data concerning the TestWallet contract.
var TestWalletMetaData = &bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"hash\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"isValidSignature\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	Bin: "0x60a0604052348015600e575f5ffd5b506040516103e63803806103e6833981016040819052602b91603b565b6001600160a01b03166080526066565b5f60208284031215604a575f5ffd5b81516001600160a01b0381168114605f575f5ffd5b9392505050565b6080516103636100835f395f8181606e015260d801526103635ff3fe608060405234801561000f575f5ffd5b5060043610610034575f3560e01c80631626ba7e146100385780638da5cb5b14610069575b5f5ffd5b61004b61004636600461025c565b6100a8565b6040516001600160e01b031990911681526020015b60405180910390f35b6100907f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610060565b5f5f5f6100b58585610137565b5090925090505f8160038111156100ce576100ce610319565b14801561010c57507f00000000000000000000000000000000000000000000000000000000000000006001600160a01b0316826001600160a01b0316145b156101235750630b135d3f60e11b91506101319050565b506001600160e01b03199150505b92915050565b5f5f5f835160410361016e576020840151604085015160608601515f1a61016088828585610180565b955095509550505050610179565b505081515f91506002905b9250925092565b5f80807f7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a08411156101b957505f9150600390508261023e565b604080515f808252602082018084528a905260ff891692820192909252606081018790526080810186905260019060a0016020604051602081039080840390855afa15801561020a573d5f5f3e3d5ffd5b5050604051601f1901519150506001600160a01b03811661023557505f92506001915082905061023e565b92505f91508190505b9450945094915050565b634e487b7160e01b5f52604160045260245ffd5b5f5f6040838503121561026d575f5ffd5b82359150602083013567ffffffffffffffff81111561028a575f5ffd5b8301601f8101851361029a575f5ffd5b803567ffffffffffffffff8111156102b4576102b4610248565b604051601f8201601f19908116603f0116810167ffffffffffffffff811182821017156102e3576102e3610248565b6040528181528282016020018710156102fa575f5ffd5b816020840160208301375f602083830101528093505050509250929050565b634e487b7160e01b5f52602160045260245ffdfea2646970667358221220703b4742a1364f1ad107d3e34943418a3563d59f17cd1956462462f10ca9ba3964736f6c634300081c0033",
}

// TestWalletABI is the input ABI used to generate the binding from.
// Deprecated: Use TestWalletMetaData.ABI instead.
var TestWalletABI = TestWalletMetaData.ABI

// TestWalletBin is the compiled bytecode used for deploying new contracts.
// Deprecated: Use TestWalletMetaData.Bin instead.
var TestWalletBin = TestWalletMetaData.Bin

// DeployTestWallet deploys a new Ethereum contract, binding an instance of TestWallet to it.
func DeployTestWallet(auth *bind.TransactOpts, backend bind.ContractBackend, owner_ common.Address) (common.Address, *types.Transaction, *TestWallet, error) {
	parsed, err := TestWalletMetaData.GetAbi()
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	if parsed == nil {
		return common.Address{}, nil, nil, errors.New("GetABI returned nil")
	}

	address, tx, contract, err := bind.DeployContract(auth, *parsed, common.FromHex(TestWalletBin), backend, owner_)
	if err != nil {
		return common.Address{}, nil, nil, err
	}
	return address, tx, &TestWallet{TestWalletCaller: TestWalletCaller{contract: contract}, TestWalletTransactor: TestWalletTransactor{contract: contract}, TestWalletFilterer: TestWalletFilterer{contract: contract}}, nil
}

// TestWallet is an auto generated Go binding around an Ethereum contract.
type TestWallet struct {
	TestWalletCaller     // Read-only binding to the contract
	TestWalletTransactor // Write-only binding to the contract
	TestWalletFilterer   // Log filterer for contract events
}

// TestWalletCaller is an auto generated read-only Go binding around an Ethereum contract.
type TestWalletCaller struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// TestWalletTransactor is an auto generated write-only Go binding around an Ethereum contract.
type TestWalletTransactor struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// TestWalletFilterer is an auto generated log filtering Go binding around an Ethereum contract events.
type TestWalletFilterer struct {
	contract *bind.BoundContract // Generic contract wrapper for the low level calls
}

// TestWalletSession is an auto generated Go binding around an Ethereum contract,
// with pre-set call and transact options.
type TestWalletSession struct {
	Contract     *TestWallet       // Generic contract binding to set the session for
	CallOpts     bind.CallOpts     // Call options to use throughout this session
	TransactOpts bind.TransactOpts // Transaction auth options to use throughout this session
}

// TestWalletCallerSession is an auto generated read-only Go binding around an Ethereum contract,
// with pre-set call options.
type TestWalletCallerSession struct {
	Contract *TestWalletCaller // Generic contract caller binding to set the session for
	CallOpts bind.CallOpts     // Call options to use throughout this session
}

// TestWalletTransactorSession is an auto generated write-only Go binding around an Ethereum contract,
// with pre-set transact options.
type TestWalletTransactorSession struct {
	Contract     *TestWalletTransactor // Generic contract transactor binding to set the session for
	TransactOpts bind.TransactOpts     // Transaction auth options to use throughout this session
}

// TestWalletRaw is an auto generated low-level Go binding around an Ethereum contract.
type TestWalletRaw struct {
	Contract *TestWallet // Generic contract binding to access the raw methods on
}

// TestWalletCallerRaw is an auto generated low-level read-only Go binding around an Ethereum contract.
type TestWalletCallerRaw struct {
	Contract *TestWalletCaller // Generic read-only contract binding to access the raw methods on
}

// TestWalletTransactorRaw is an auto generated low-level write-only Go binding around an Ethereum contract.
type TestWalletTransactorRaw struct {
	Contract *TestWalletTransactor // Generic write-only contract binding to access the raw methods on
}

// NewTestWallet creates a new instance of TestWallet, bound to a specific deployed contract.
func NewTestWallet(address common.Address, backend bind.ContractBackend) (*TestWallet, error) {
	contract, err := bindTestWallet(address, backend, backend, backend)
	if err != nil {
		return nil, err
	}
	return &TestWallet{TestWalletCaller: TestWalletCaller{contract: contract}, TestWalletTransactor: TestWalletTransactor{contract: contract}, TestWalletFilterer: TestWalletFilterer{contract: contract}}, nil
}

// NewTestWalletCaller creates a new read-only instance of TestWallet, bound to a specific deployed contract.
func NewTestWalletCaller(address common.Address, caller bind.ContractCaller) (*TestWalletCaller, error) {
	contract, err := bindTestWallet(address, caller, nil, nil)
	if err != nil {
		return nil, err
	}
	return &TestWalletCaller{contract: contract}, nil
}

// NewTestWalletTransactor creates a new write-only instance of TestWallet, bound to a specific deployed contract.
func NewTestWalletTransactor(address common.Address, transactor bind.ContractTransactor) (*TestWalletTransactor, error) {
	contract, err := bindTestWallet(address, nil, transactor, nil)
	if err != nil {
		return nil, err
	}
	return &TestWalletTransactor{contract: contract}, nil
}

// NewTestWalletFilterer creates a new log filterer instance of TestWallet, bound to a specific deployed contract.
func NewTestWalletFilterer(address common.Address, filterer bind.ContractFilterer) (*TestWalletFilterer, error) {
	contract, err := bindTestWallet(address, nil, nil, filterer)
	if err != nil {
		return nil, err
	}
	return &TestWalletFilterer{contract: contract}, nil
}

// bindTestWallet binds a generic wrapper to an already deployed contract.
func bindTestWallet(address common.Address, caller bind.ContractCaller, transactor bind.ContractTransactor, filterer bind.ContractFilterer) (*bind.BoundContract, error) {
	parsed, err := TestWalletMetaData.GetAbi()
	if err != nil {
		return nil, err
	}
	return bind.NewBoundContract(address, *parsed, caller, transactor, filterer), nil
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_TestWallet *TestWalletRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _TestWallet.Contract.TestWalletCaller.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_TestWallet *TestWalletRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _TestWallet.Contract.TestWalletTransactor.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_TestWallet *TestWalletRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _TestWallet.Contract.TestWalletTransactor.contract.Transact(opts, method, params...)
}

// Call invokes the (constant) contract method with params as input values and
// sets the output to result. The result type might be a single field for simple
// returns, a slice of interfaces for anonymous returns and a struct for named
// returns.
func (_TestWallet *TestWalletCallerRaw) Call(opts *bind.CallOpts, result *[]interface{}, method string, params ...interface{}) error {
	return _TestWallet.Contract.contract.Call(opts, result, method, params...)
}

// Transfer initiates a plain transaction to move funds to the contract, calling
// its default method if one is available.
func (_TestWallet *TestWalletTransactorRaw) Transfer(opts *bind.TransactOpts) (*types.Transaction, error) {
	return _TestWallet.Contract.contract.Transfer(opts)
}

// Transact invokes the (paid) contract method with params as input values.
func (_TestWallet *TestWalletTransactorRaw) Transact(opts *bind.TransactOpts, method string, params ...interface{}) (*types.Transaction, error) {
	return _TestWallet.Contract.contract.Transact(opts, method, params...)
}

// IsValidSignature is a free data retrieval call binding the contract method 0x1626ba7e.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (_TestWallet *TestWalletCaller) IsValidSignature(opts *bind.CallOpts, hash [32]byte, signature []byte) ([4]byte, error) {
	var out []interface{}
	err := _TestWallet.contract.Call(opts, &out, "isValidSignature", hash, signature)

	if err != nil {
		return *new([4]byte), err
	}

	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)

	return out0, err

}

// IsValidSignature is a free data retrieval call binding the contract method 0x1626ba7e.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (_TestWallet *TestWalletSession) IsValidSignature(hash [32]byte, signature []byte) ([4]byte, error) {
	return _TestWallet.Contract.IsValidSignature(&_TestWallet.CallOpts, hash, signature)
}

// IsValidSignature is a free data retrieval call binding the contract method 0x1626ba7e.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (_TestWallet *TestWalletCallerSession) IsValidSignature(hash [32]byte, signature []byte) ([4]byte, error) {
	return _TestWallet.Contract.IsValidSignature(&_TestWallet.CallOpts, hash, signature)
}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_TestWallet *TestWalletCaller) Owner(opts *bind.CallOpts) (common.Address, error) {
	var out []interface{}
	err := _TestWallet.contract.Call(opts, &out, "owner")

	if err != nil {
		return *new(common.Address), err
	}

	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)

	return out0, err

}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_TestWallet *TestWalletSession) Owner() (common.Address, error) {
	return _TestWallet.Contract.Owner(&_TestWallet.CallOpts)
}

// Owner is a free data retrieval call binding the contract method 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (_TestWallet *TestWalletCallerSession) Owner() (common.Address, error) {
	return _TestWallet.Contract.Owner(&_TestWallet.CallOpts)
}
